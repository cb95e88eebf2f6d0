import CardEmulator
import EMV
import Foundation
import ReaderKernel
import Testing

/// The shipped test cards of CardEmulator, personalised on a fixed date, and the issuer-side check of the kernel's
/// field 55 with EMV's `CardCryptograms` under the profile's issuer master keys.
enum EmulatedCards {
    static let personalisationDate = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18
    static let transactionDate = personalisationDate.addingTimeInterval(3_600)

    static func card(_ profile: CardProfile) throws -> EmulatedCard {
        try profile.personalize(
            on: personalisationDate, environment: .fixed(at: transactionDate, seed: 11))
    }

    /// A kernel configured with the test CAs' keys, on the transaction date, with a counter for unpredictable numbers.
    static func kernel(configure: (inout ReaderConfiguration) -> Void = { _ in }) throws -> ReaderKernel {
        var configuration = ReaderConfiguration.default(caPublicKeys: try CardProfile.testCAPublicKeys)
        configure(&configuration)
        let counter = UnpredictableNumbers()
        return ReaderKernel(
            configuration: configuration, clock: { transactionDate },
            timeZone: TimeZone(identifier: "UTC") ?? .current, unpredictableNumbers: { counter.next() })
    }

    /// Distinct, deterministic unpredictable numbers: 0xC0FFEE00, 0xC0FFEE01, ...
    final class UnpredictableNumbers: @unchecked Sendable {
        private var value: UInt32 = 0xC0FF_EE00
        private let lock = NSLock()

        func next() -> [UInt8] {
            lock.lock()
            defer { lock.unlock() }
            value &+= 1
            return withUnsafeBytes(of: value.bigEndian, Array.init)
        }
    }

    static func euros(_ minorUnits: Int) -> TransactionRequest {
        TransactionRequest(amount: Amount(minorUnits: minorUnits, currency: .eur))
    }

    /// Issuer side: from field 55 alone, reads the cryptogram version (IAD and DF name) and the cryptogram input,
    /// then verifies the ARQC under the profile's issuer master key, as an issuer host does.
    static func issuerVerifiesARQC(_ data: CardAuthorizationData, profile: CardProfile) throws -> Bool {
        let version = try CryptogramVersion(
            issuerApplicationData: try #require(data.iccValue(.issuerApplicationData)),
            applicationIdentifier: try #require(data.iccValue(.dedicatedFileName)))
        #expect(version == (try profile.resolvedCryptogramVersion()))
        return try profile.issuerVerifiesCryptogram(
            inAuthorizationData: data.iccDataObjects(), pan: data.pan.digits,
            panSequenceNumber: data.panSequenceNumber.map { [$0].hexString })
    }

    /// Flips one byte inside the first data object with `tag` in any response that carries it.
    static func flipping(_ tag: [UInt8], offset: Int = 12) -> @Sendable (CommandAPDU, ResponseAPDU) -> ResponseAPDU {
        { _, response in
            var data = response.data
            guard
                let start = (0..<max(0, data.count - tag.count)).first(where: {
                    Array(data[$0..<($0 + tag.count)]) == tag
                }),
                start + offset < data.count
            else { return response }
            data[start + offset] ^= 0x01
            return ResponseAPDU(data: data, statusWord: response.statusWord)
        }
    }
}
