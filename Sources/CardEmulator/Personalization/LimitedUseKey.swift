public import Foundation

/// One single-use application cryptogram session key, bound to the ATC it was derived for (like Mastercard MCBP's
/// single-use keys): the card holds these, never the ICC master key.
///
/// The issuer derives them from the ICC master key (EMV common session key, R = ATC ‖ 00…00), so an ARQC made with one
/// verifies under the issuer master key. Description and mirror show the ATC and validity only.
public struct LimitedUseKey: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The ATC this key belongs to; the card uses it for exactly that transaction.
    public let atc: UInt16
    /// The 16-byte AC session key.
    public let sessionKey: [UInt8]
    /// After this instant the card skips the key.
    public let validUntil: Date

    /// Creates a key.
    public init(atc: UInt16, sessionKey: [UInt8], validUntil: Date) {
        self.atc = atc
        self.sessionKey = sessionKey
        self.validUntil = validUntil
    }

    /// The ATC as its two bytes (tag 9F36).
    public var atcBytes: [UInt8] { [UInt8(atc >> 8), UInt8(truncatingIfNeeded: atc)] }

    /// ATC and validity; never the key.
    public var description: String { "LimitedUseKey(ATC \(atc), valid until \(validUntil))" }

    /// ATC and validity only.
    public var customMirror: Mirror {
        Mirror(self, children: ["atc": atc, "validUntil": validUntil], displayStyle: .struct)
    }
}
