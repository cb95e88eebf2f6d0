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

    /// Fixed data and PIN keys (test values), and the shipped profiles' issuer master keys for the test BIN ranges.
    static func keys() throws -> IssuerKeys {
        func masterKeys(_ profile: CardProfile) throws -> IssuerMasterKeys {
            try IssuerMasterKeys(
                ac: profile.issuerMasterKeys.ac.bytes, smi: profile.issuerMasterKeys.smi.bytes,
                smc: profile.issuerMasterKeys.smc.bytes)
        }
        return try IssuerKeys(
            masterKeys: [
                .init(prefix: TestCards.visaPrefix, keys: try masterKeys(CardProfile.visaTest)),
                .init(prefix: TestCards.mastercardPrefix, keys: try masterKeys(CardProfile.mastercardTest)),
            ],
            panHashKey: Array(repeating: 0x11, count: 32), panEncryptionKey: Array(repeating: 0x22, count: 32),
            pinVerificationKey: Array(repeating: 0x33, count: 32), zonePINKey: zonePINKey,
            pinEncryptionKey: pinEncryptionKey)
    }

    static let zonePINKey: [UInt8] = [UInt8](hex: "0123456789ABCDEFFEDCBA9876543210") ?? []
    static let pinEncryptionKey: [UInt8] = [UInt8](hex: "000102030405060708090A0B0C0D0E0F") ?? []

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
        -> AuthorizationData
    {
        let result = try await kernel().perform(
            TransactionRequest(amount: Amount(minorUnits: minorUnits, currency: .eur)), over: channel)
        #expect(result.outcome.status == .onlineRequest, "\(result.outcome)")
        return try #require(result.outcome.authorizationData)
    }

    /// The 0100 the gateway will build from a tap: fields 2, 3, 4, 7, 11, 12, 14, 22, 23, 35, 37, 41, 42, 49, 55
    /// (and 52 with a PIN block).
    static func authorizationRequest(
        _ data: AuthorizationData, minorUnits: Int = 1_000, stan: Int = 1, pinBlock: [UInt8]? = nil
    ) -> ISO8583Message {
        var message = ISO8583Message(mti: .authorizationRequest)
        message[.pan] = .text(data.pan.digits)
        message[.processingCode] = "000000"
        message[.amount] = .text(padded(minorUnits, 12))
        message[.transmissionDateTime] = .text(timestamp("MMddHHmmss"))
        message[.systemTraceAuditNumber] = .text(padded(stan, 6))
        message[.localTime] = .text(timestamp("HHmmss"))
        if let expiry = data.expiry { message[.expirationDate] = .text(expiry.yymm) }
        message[.posEntryMode] = "071"
        if let psn = data.panSequenceNumber { message[.cardSequenceNumber] = .text("0" + [psn].hexString) }
        if let track2 = data.track2 { message[.track2] = .text(track2Text(track2)) }
        message[.retrievalReferenceNumber] = .text(padded(stan, 12))
        message[.terminalID] = "TERM0001"
        message[.merchantID] = "MERCHANT0000001"
        message[.currencyCode] = "978"
        if let pinBlock { message[.pinBlock] = .binary(pinBlock) }
        message.setICCData(data.iccData)
        return message
    }

    /// The 0400 reversing the 0100 with this STAN (same RRN and terminal).
    static func reversal(of request: ISO8583Message) -> ISO8583Message {
        var reversal = request
        reversal.mti = .reversalRequest
        for field: ISO8583Field in [.expirationDate, .posEntryMode, .cardSequenceNumber, .track2, .pinBlock, .iccData] {
            reversal[field] = nil
        }
        return reversal
    }

    /// Track 2 as field 35 carries it: digits, `=` for the separator, no pad nibble.
    static func track2Text(_ track2: Track2EquivalentData) -> String {
        var text = track2.bytes.hexString.replacingOccurrences(of: "D", with: "=")
        while text.hasSuffix("F") { text.removeLast() }
        return text
    }

    /// An ISO 9564 format 0 PIN block under the zone PIN key.
    static func format0PINBlock(_ pin: String, pan: String) throws -> [UInt8] {
        try TDESKey(zonePINKey).encryptECB(try PINBlock.encodeISO0(pin: pin, pan: pan))
    }

    /// An ISO 9564 format 4 PIN block under the PIN encryption key.
    static func format4PINBlock(_ pin: String, pan: String) throws -> [UInt8] {
        try PINBlock.encipherISO4(pin: pin, pan: pan, key: pinEncryptionKey)
    }

    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    static func timestamp(_ format: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = utc
        formatter.dateFormat = format
        return formatter.string(from: transactionDate)
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
