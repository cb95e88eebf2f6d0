public import Foundation

/// The 20-byte online payment cryptogram of a device account number (DPAN): what a wallet puts in a remote
/// (in-app or web) token payment, such as Apple Pay's `onlinePaymentCryptogram`, and the issuer's token vault
/// verifies.
///
/// The schemes' own formats (Visa TAVV, Mastercard DSRP/UCAF) are not public; this one is built only from EMV's
/// published machinery, the same the card's ARQC uses:
///
/// ```
/// byte  0       version (01)
/// bytes 1–2     ATC, the token's transaction counter (big-endian)
/// bytes 3–6     UN, an unpredictable number chosen by the device
/// bytes 7–11    transaction time, UTC, n10 YYMMDDhhmm
/// bytes 12–19   MAC
/// ```
///
/// - The per-token key MK is the ICC master key of the DPAN with option A (EMV Book 2, A1.4.1,
///   ``KeyDerivation/iccMasterKeyOptionA(issuerMasterKey:pan:psn:)``) under the issuer master key (IMK-AC) of the
///   token BIN range, PSN `00`.
/// - The session key is Mastercard's SKD (``SessionKey/mastercard(iccMasterKey:atc:unpredictableNumber:)``):
///   the common session key of MK with R = ATC ‖ 00 00 ‖ UN, so every cryptogram has its own key.
/// - The MAC is ISO/IEC 9797-1 algorithm 3 with padding method 2 (``ISO9797``) under the session key over
///   bytes 0–11 ‖ DPAN (cn, 10 bytes, F-padded) ‖ amount (n12, 6 bytes, minor units) ‖ currency (n3 in 2 bytes,
///   ISO 4217 numeric).
///
/// So a cryptogram binds the token, the amount, the currency and the time; the issuer refuses an ATC it has seen
/// (replay) and a time far from the request's. The description never shows the MAC.
public struct OnlinePaymentCryptogram: Sendable, Hashable, CustomStringConvertible {
    /// The encoded length: 20 bytes (28 characters of base64).
    public static let byteCount = 20
    /// The one version this type reads and writes.
    public static let currentVersion: UInt8 = 0x01

    /// The token's application transaction counter.
    public let atc: UInt16
    /// The device's unpredictable number, 4 bytes.
    public let unpredictableNumber: [UInt8]
    /// The transaction time to the minute (UTC), as it was encoded.
    public let time: Date
    /// The MAC, 8 bytes.
    public let mac: [UInt8]
    /// The time as n10 `YYMMDDhhmm`, 5 bytes.
    private let timeBCD: [UInt8]

    /// Reads an encoded cryptogram.
    /// - Throws: ``CryptoError/Code/invalidDataLength`` unless 20 bytes, ``CryptoError/Code/invalidParameter`` for
    ///   another version or a time that is not a valid `YYMMDDhhmm`.
    public init(bytes: some Collection<UInt8>) throws(CryptoError) {
        let bytes = Array(bytes)
        guard bytes.count == Self.byteCount else {
            throw CryptoError(.invalidDataLength, "an online payment cryptogram has 20 bytes, not \(bytes.count)")
        }
        guard bytes[0] == Self.currentVersion else {
            throw CryptoError(.invalidParameter, "online payment cryptogram version \(bytes[0]) is not supported")
        }
        let timeBCD = Array(bytes[7..<12])
        guard let time = Self.date(fromBCD: timeBCD) else {
            throw CryptoError(.invalidParameter, "the online payment cryptogram's time is not a valid YYMMDDhhmm")
        }
        self.atc = UInt16(bytes[1]) << 8 | UInt16(bytes[2])
        self.unpredictableNumber = Array(bytes[3..<7])
        self.timeBCD = timeBCD
        self.time = time
        self.mac = Array(bytes[12..<20])
    }

    /// Computes the cryptogram of one payment.
    /// - Parameters:
    ///   - tokenKey: The token's 16-byte cryptogram key MK (option A from the token range's IMK-AC).
    ///   - dpan: The device account number's digits.
    ///   - amount: The amount in the currency's minor units, 0 to 999 999 999 999.
    ///   - currencyCode: The ISO 4217 numeric currency code, 0 to 999.
    ///   - atc: The token's transaction counter for this payment.
    ///   - unpredictableNumber: 4 bytes the device chooses at random.
    ///   - time: When the payment is made; kept to the minute, UTC, years 2000–2099.
    /// - Throws: ``CryptoError/Code/invalidKeyLength``, ``CryptoError/Code/invalidFieldLength`` for an unpredictable
    ///   number that is not 4 bytes, ``CryptoError/Code/invalidParameter`` for an amount, currency, DPAN or time out
    ///   of range.
    public static func generate(
        tokenKey: [UInt8], dpan: String, amount: Int, currencyCode: Int, atc: UInt16, unpredictableNumber: [UInt8],
        time: Date
    ) throws(CryptoError) -> OnlinePaymentCryptogram {
        try CryptoError.checkLength(unpredictableNumber, 4, "unpredictable number")
        guard let timeBCD = bcd(of: time) else {
            throw CryptoError(.invalidParameter, "an online payment cryptogram's time must be in 2000–2099")
        }
        let header = [currentVersion, UInt8(atc >> 8), UInt8(truncatingIfNeeded: atc)] + unpredictableNumber + timeBCD
        let mac = try computeMAC(
            tokenKey: tokenKey, header: header, dpan: dpan, amount: amount, currencyCode: currencyCode)
        return try OnlinePaymentCryptogram(bytes: header + mac)
    }

    /// Whether the MAC is right for this token key, DPAN, amount and currency (compared in constant time).
    /// - Throws: as ``generate(tokenKey:dpan:amount:currencyCode:atc:unpredictableNumber:time:)`` for bad inputs.
    public func verify(tokenKey: [UInt8], dpan: String, amount: Int, currencyCode: Int) throws(CryptoError) -> Bool {
        let expected = try Self.computeMAC(
            tokenKey: tokenKey, header: Array(bytes.prefix(12)), dpan: dpan, amount: amount,
            currencyCode: currencyCode)
        return zip(expected, mac).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0 && expected.count == mac.count
    }

    /// The 20 encoded bytes.
    public var bytes: [UInt8] {
        [Self.currentVersion, UInt8(atc >> 8), UInt8(truncatingIfNeeded: atc)] + unpredictableNumber + timeBCD + mac
    }

    /// Version, ATC and time only: never the MAC.
    public var description: String {
        "OnlinePaymentCryptogram(v\(Self.currentVersion), ATC \(atc), \(BCD.text(BCD.nibbles(timeBCD))))"
    }

    /// The MAC over the header and the transaction data under the session key.
    private static func computeMAC(
        tokenKey: [UInt8], header: [UInt8], dpan: String, amount: Int, currencyCode: Int
    ) throws(CryptoError) -> [UInt8] {
        guard (0...999_999_999_999).contains(amount), (0...999).contains(currencyCode) else {
            throw CryptoError(.invalidParameter, "the amount must be n12 and the currency code n3")
        }
        guard let digits = BCD.digitValues(ofText: dpan), PAN.validLengths.contains(digits.count),
            let dpanCN = BCD.compressedNumeric(digits, byteCount: 10)
        else { throw CryptoError(.invalidPAN, "a device account number has 12 to 19 digits") }
        let sessionKey = try SessionKey.mastercard(
            iccMasterKey: tokenKey, atc: Array(header[1..<3]), unpredictableNumber: Array(header[3..<7]))
        let data = header + dpanCN + BCD.numeric(amount, byteCount: 6) + BCD.numeric(currencyCode, byteCount: 2)
        return try ISO9797.mac(algorithm: .algorithm3, key: try TDESKey(sessionKey), data: data, padding: .method2)
    }

    private static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
        return calendar
    }

    /// n10 `YYMMDDhhmm` of a UTC time in 2000–2099.
    static func bcd(of time: Date) -> [UInt8]? {
        let parts = utc.dateComponents([.year, .month, .day, .hour, .minute], from: time)
        guard let year = parts.year, (2000...2099).contains(year), let month = parts.month, let day = parts.day,
            let hour = parts.hour, let minute = parts.minute
        else { return nil }
        return BCD.numeric(
            (((year % 100) * 100 + month) * 100 + day) * 10_000 + hour * 100 + minute, byteCount: 5)
    }

    /// The time of an n10 `YYMMDDhhmm`; nil unless every field is in range.
    static func date(fromBCD bytes: [UInt8]) -> Date? {
        let nibbles = BCD.nibbles(bytes)
        guard nibbles.allSatisfy({ $0 <= 9 }) else { return nil }
        func field(_ index: Int) -> Int { Int(nibbles[index]) * 10 + Int(nibbles[index + 1]) }
        let (year, month, day, hour, minute) = (2000 + field(0), field(2), field(4), field(6), field(8))
        guard (1...12).contains(month), day >= 1, day <= EMVDate.daysInMonth(year: year, month: month),
            hour < 24, minute < 60
        else { return nil }
        return utc.date(
            from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))
    }
}
