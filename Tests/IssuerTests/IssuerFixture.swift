import CardEmulator
import EMV
import Foundation
import ISO8583
import Issuer
import ReaderKernel
import SmartCard
import Testing

/// Test cards made real: the shipped profiles with a test card's PAN, tapped on the loopback with the reader kernel,
/// the kernel's authorization data turned into a 0100 (what the gateway will do), and a host with the test accounts.
enum IssuerFixture {
    static let personalisationDate = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18
    static let transactionDate = personalisationDate.addingTimeInterval(3_600)
    static let utc = TimeZone(identifier: "UTC") ?? .current

    /// The test issuer's keys (fixed data and PIN keys, the shipped profiles' issuer master keys).
    static func keys() throws -> IssuerKeys { try IssuerKeys.test }

    /// A host holding every test card's account in a fresh in-memory repository.
    static func host() throws -> IssuerHost {
        let keys = try keys()
        return IssuerHost(keys: keys, repository: try TestCards.repository(keys: keys))
    }

    /// The shipped profile of the card's scheme with the card's PAN, its ICC certificate re-signed.
    static func profile(_ card: TestCard) throws -> CardProfile {
        var profile = card.scheme == .visa ? try CardProfile.visaTest : try CardProfile.mastercardTest
        profile.pan = card.pan
        return try profile.certified()
    }

    /// A personalised card applet on the loopback.
    static func channel(_ card: TestCard) throws -> LoopbackChannel<EmulatedCard> {
        let applet = try profile(card).personalize(
            on: personalisationDate, environment: .fixed(at: transactionDate, seed: 5))
        return LoopbackChannel(applet: applet)
    }

    static let counter = Counter()

    static func kernel() throws -> ReaderKernel {
        ReaderKernel(
            configuration: .default(caPublicKeys: try CardProfile.testCAPublicKeys), clock: { transactionDate },
            timeZone: utc, unpredictableNumbers: { counter.next() })
    }

    /// One tap for `minorUnits` EUR cents; the kernel must ask to go online.
    static func tap(_ channel: LoopbackChannel<EmulatedCard>, minorUnits: Int = 1_000) async throws
        -> CardAuthorizationData
    {
        let result = try await kernel().perform(
            TransactionRequest(amount: Amount(minorUnits: minorUnits, currency: .eur)), over: channel)
        #expect(result.outcome.status == .onlineRequest, "\(result.outcome)")
        return try #require(result.outcome.authorizationData)
    }

    /// The 0100 the gateway builds from a tap (``AuthorizationRequest``): a purchase in EUR at terminal `TERM0001`,
    /// RRN the STAN on 12 digits.
    static func authorizationRequest(
        _ data: CardAuthorizationData, minorUnits: Int = 1_000, stan: Int = 1, pinBlock: [UInt8]? = nil
    ) throws -> ISO8583Message {
        try message(data, minorUnits: minorUnits, stan: stan, pinBlock: pinBlock).message()
    }

    /// The builder behind ``authorizationRequest(_:minorUnits:stan:pinBlock:)``.
    static func message(
        _ data: CardAuthorizationData, minorUnits: Int = 1_000, stan: Int = 1, pinBlock: [UInt8]? = nil
    ) -> AuthorizationRequest {
        AuthorizationRequest(
            card: data,
            amount: minorUnits, currency: .eur, type: .purchase, systemTraceAuditNumber: stan,
            retrievalReferenceNumber: String(format: "%012d", stan), terminalID: "TERM0001",
            merchantID: "MERCHANT0000001", transmissionDate: transactionDate, localTimeZone: utc, pinBlock: pinBlock)
    }

    /// The 0400 reversing a 0100 (same STAN, RRN and terminal).
    static func reversal(of request: ISO8583Message) throws -> ISO8583Message {
        try AuthorizationRequest.reversal(of: request)
    }

    /// An ISO 9564 format 0 PIN block under the zone PIN key.
    static func format0PINBlock(_ pin: String, pan: String) throws -> [UInt8] {
        try TDESKey(IssuerKeys.testZonePINKey).encryptECB(try PINBlock.encodeISO0(pin: pin, pan: pan))
    }

    /// An ISO 9564 format 4 PIN block under the PIN encryption key.
    static func format4PINBlock(_ pin: String, pan: String) throws -> [UInt8] {
        try PINBlock.encipherISO4(pin: pin, pan: pan, key: IssuerKeys.testPINEncryptionKey)
    }

    /// Distinct, deterministic unpredictable numbers.
    final class Counter: @unchecked Sendable {
        private var value: UInt32 = 0x1550_0000
        private let lock = NSLock()

        func next() -> [UInt8] {
            lock.lock()
            defer { lock.unlock() }
            value &+= 1
            return withUnsafeBytes(of: value.bigEndian, Array.init)
        }
    }
}

extension ISO8583Message {
    /// Field 39 as a ``ResponseCode``.
    var responseCode: ResponseCode? { self[.responseCode]?.text.map(ResponseCode.init(rawValue:)) }
}
