import CardEmulator
import Foundation

/// One digital card as the wallet keeps it, sealed: the token, its DPAN and its unused payment keys.
struct DigitalCardRecord: Codable, Sendable {
    /// A payment key at rest.
    struct StoredKey: Codable, Sendable {
        var atc: UInt16
        var sessionKey: [UInt8]
        var validUntil: Date

        init(_ key: LimitedUseKey) {
            atc = key.atc
            sessionKey = key.sessionKey
            validUntil = key.validUntil
        }

        var key: LimitedUseKey { LimitedUseKey(atc: atc, sessionKey: sessionKey, validUntil: validUntil) }
    }

    var digitalCardID: String
    var tokenID: String
    /// The DPAN's digits: only ever in the sealed record and in the card applet.
    var dpan: String
    var maskedDPAN: String
    var expiry: String
    var panSequenceNumber: String
    var scheme: CardProfile.Scheme
    var fundingLastFour: String
    var state: DigitalCard.State
    var keys: [StoredKey]
    /// The ATC of the last transaction the card made; keys at or below it are spent.
    var lastATC: UInt16?
    var walletTransactionData: [UInt8]?
    var digitizedAt: Date
    /// The card's place in the wallet: digitization order, which the list keeps.
    var ordinal: Int

    /// The keys still usable at `date`: unspent and unexpired.
    func usableKeys(at date: Date) -> [LimitedUseKey] {
        keys.filter { key in (lastATC.map { key.atc > $0 } ?? true) && key.validUntil >= date }.map(\.key)
    }

    /// Keeps only the keys above `atc` and remembers it as spent.
    mutating func spend(through atc: UInt16?) {
        guard let atc else { return }
        lastATC = max(lastATC ?? 0, atc)
        keys.removeAll { $0.atc <= atc }
    }
}

extension DigitalCardRecord: CustomStringConvertible, CustomReflectable {
    /// The masked DPAN, state and key count; never the DPAN or a key.
    var description: String { "DigitalCardRecord(\(maskedDPAN), \(state), \(keys.count) keys)" }

    /// The same fields as ``description``.
    var customMirror: Mirror {
        Mirror(
            self, children: ["maskedDPAN": maskedDPAN, "state": state, "keyCount": keys.count], displayStyle: .struct)
    }
}
