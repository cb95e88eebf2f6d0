public import Foundation

/// One limited-use payment key of a digitized card: the AC session key for exactly one ATC.
///
/// ## Derivation
/// The token's ICC master key is derived from the token range's IMK-AC with EMV option A over the DPAN and PSN `00`
/// (EMV 4.3 Book 2, A1.4.1; ``TokenVault/cryptogramKey(for:)``). Each key is the EMV common session key of that
/// master key for its ATC (EMV 4.3 Book 2, A1.3.1, R = ATC ‖ `00 00 00 00 00 00`), which is what the card
/// applet's cryptogram versions Visa CVN 18 and Mastercard CVN 20/21 use: an ARQC computed with the key verifies
/// at the issuer under its master key, and the ARPC comes from the same session key. The wallet never holds the
/// master key, so one leaked key pays at most once.
///
/// Description and mirror show the ATC and validity only, never the key.
public struct PaymentKey: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The ATC the key is for.
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

    /// `PaymentKey(ATC 7, valid until …)`.
    public var description: String { "PaymentKey(ATC \(atc), valid until \(validUntil))" }

    /// ATC and validity only.
    public var customMirror: Mirror {
        Mirror(self, children: ["atc": atc, "validUntil": validUntil], displayStyle: .struct)
    }
}
