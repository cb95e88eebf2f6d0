/// One BIN range's issuer master keys (EMV Book 2, A1.4): for application cryptograms (IMK-AC), secure messaging
/// integrity (IMK-SMI) and confidentiality (IMK-SMC). Each card's ICC master keys derive from them.
///
/// The description and mirror never show the keys.
public struct IssuerMasterKeys: Sendable, CustomStringConvertible, CustomReflectable {
    /// IMK-AC, 16 bytes.
    public let ac: [UInt8]
    /// IMK-SMI, 16 bytes.
    public let smi: [UInt8]
    /// IMK-SMC, 16 bytes.
    public let smc: [UInt8]

    /// Wraps three double-length TDES keys.
    /// - Throws: ``IssuerError/invalidKey`` unless each key has 16 bytes.
    public init(ac: [UInt8], smi: [UInt8], smc: [UInt8]) throws(IssuerError) {
        for (name, key) in [("IMK-AC", ac), ("IMK-SMI", smi), ("IMK-SMC", smc)] where key.count != 16 {
            throw IssuerError(.invalidKey, "\(name) must have 16 bytes, not \(key.count)")
        }
        self.ac = ac
        self.smi = smi
        self.smc = smc
    }

    /// Never the keys.
    public var description: String { "IssuerMasterKeys(<redacted>)" }

    /// No children: `dump` shows the type only.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
}
