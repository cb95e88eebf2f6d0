import Foundation

/// What a remote token payment (in-app or web: Apple Pay, a wallet's card on file) carries beside the device
/// account number: its online payment cryptogram and electronic commerce indicator.
///
/// On the wire it is field 48 (additional data, private) as Mastercard carries them in DE 48: subelement 42 the
/// ECI (2 digits), subelement 43 the cryptogram in base64 (28 characters for 20 bytes), each `NN LL value` with a
/// 2-digit tag and a 2-digit length. Field 22 is ``posEntryMode``. The description never shows the cryptogram.
public struct TokenPaymentData: Hashable, Sendable, CustomStringConvertible {
    /// Field 22 of a token payment: `81` PAN entry via electronic commerce, including remote chip (Mastercard
    /// DE 22; Visa writes `01` with POS condition `59`), then `0` PIN entry capability unknown.
    public static let posEntryMode = "810"

    /// The cryptogram bytes (20 for an ``EMV/OnlinePaymentCryptogram``).
    public var cryptogram: [UInt8]
    /// The electronic commerce indicator, two digits (`05`, `07`…); nil when the wallet gave none.
    public var eci: String?

    /// Wraps a cryptogram and an ECI.
    public init(cryptogram: [UInt8], eci: String? = nil) {
        self.cryptogram = cryptogram
        self.eci = eci
    }

    /// Reads field 48; nil unless subelement 43 holds base64 and every subelement is whole.
    public init?(field48 text: String) {
        var rest = Substring(text)
        var cryptogram: [UInt8]?
        var eci: String?
        while !rest.isEmpty {
            guard rest.utf8.count >= 4, let length = Int(rest.dropFirst(2).prefix(2)),
                rest.dropFirst(4).count >= length
            else { return nil }
            let tag = rest.prefix(2)
            let value = rest.dropFirst(4).prefix(length)
            switch tag {
            case "42":
                guard value.utf8.count == 2, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
                eci = String(value)
            case "43":
                guard let bytes = Data(base64Encoded: String(value)) else { return nil }
                cryptogram = Array(bytes)
            default: break
            }
            rest = rest.dropFirst(4 + length)
        }
        guard let cryptogram else { return nil }
        self.init(cryptogram: cryptogram, eci: eci)
    }

    /// Field 48: subelement 42 (when there is an ECI), then 43; nil when a value does not fit its 2-digit length
    /// (a cryptogram above 72 bytes, an ECI above 99 characters).
    public var field48: String? {
        let encoded = Data(cryptogram).base64EncodedString()
        guard encoded.utf8.count <= 99, (eci?.utf8.count ?? 0) <= 99 else { return nil }
        var text = ""
        if let eci { text += "42" + Self.twoDigits(eci.utf8.count) + eci }
        return text + "43" + Self.twoDigits(encoded.utf8.count) + encoded
    }

    /// The ECI and the cryptogram's length only.
    public var description: String {
        "TokenPaymentData(eci: \(eci ?? "none"), cryptogram: <redacted \(cryptogram.count)>)"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
