import CardEmulator
import Crypto
import EMV
import Foundation
import GatewayAPI
import ReaderKernel
import SmartCard
import Testing

/// Keys, payloads and a real loopback tap for the sealed card data tests.
enum SealedCardDataFixture {
    /// The shipped Visa test profile's PAN (CardEmulator/Profiles/visa-test.json).
    static let visaPAN = "4761739001010119"
    static let merchantId = "merchant_0001"
    static let deviceId = "device_0001"
    static let createdAt = Date(timeIntervalSince1970: 1_795_003_600)  // 2026-11-18 11:06:40 UTC

    /// A payload with synthetic card data for the Visa test PAN.
    static func payload(readId: UUID = UUID(), createdAt: Date = createdAt) throws -> CardDataPayload {
        let pan = try PAN(visaPAN)
        let expiry = try ExpiryDate(year: 2030, month: 12)
        let track2 = try Track2EquivalentData(pan: pan, expiry: expiry, serviceCode: "201", discretionaryData: "0001")
        let iccData = [UInt8](hex: "9F2608A1B2C3D4E5F607089F2701809F360200015F340101") ?? []
        return CardDataPayload(
            readId: readId, deviceId: deviceId, merchantId: merchantId, createdAt: createdAt,
            authorization: CardAuthorizationData(
                mode: .emv, iccData: iccData, pan: pan, panSequenceNumber: 1, expiry: expiry, track2: track2))
    }

    /// An opener for `keys` whose clock reads `now`.
    static func opener(
        _ keys: [String: P256.KeyAgreement.PrivateKey], now: Date = createdAt.addingTimeInterval(2),
        store: any SealedCardDataReplayStore = InMemorySealedCardDataReplayStore()
    ) -> CardDataOpener {
        CardDataOpener(privateKeys: keys, replayStore: store, clock: { now })
    }

    /// The Visa test card tapped on the loopback; the kernel's authorization data.
    static func visaTap() async throws -> CardAuthorizationData {
        let personalisation = Date(timeIntervalSince1970: 1_795_000_000)
        let applet = try CardProfile.visaTest.personalize(
            on: personalisation, environment: .fixed(at: createdAt, seed: 7))
        let kernel = ReaderKernel(
            configuration: .default(caPublicKeys: try CardProfile.testCAPublicKeys), clock: { createdAt },
            timeZone: TimeZone(identifier: "UTC") ?? .current, unpredictableNumbers: { [0x12, 0x34, 0x56, 0x78] })
        let result = await kernel.perform(
            TransactionRequest(amount: Amount(minorUnits: 1_000, currency: .eur)),
            over: LoopbackChannel(applet: applet))
        #expect(result.outcome.status == .onlineRequest, "\(result.outcome)")
        return try #require(result.outcome.authorizationData)
    }
}
