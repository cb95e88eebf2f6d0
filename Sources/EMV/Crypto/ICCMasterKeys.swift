/// A card's three ICC master keys (EMV 4.3 Book 2, A1.4): for application cryptograms, for issuer script
/// integrity (secure messaging MACs) and for issuer script confidentiality.
///
/// The card holds them from personalisation; the issuer derives them again from its issuer master keys.
/// The description never shows key bytes.
public struct ICCMasterKeys: Sendable, CustomStringConvertible {
    /// The application cryptogram master key, 16 bytes (pyemv `icc_mk_ac`).
    public var ac: [UInt8] { acHalves.bytes }
    /// The secure messaging integrity master key, 16 bytes (pyemv `icc_mk_smi`).
    public var smi: [UInt8] { smiHalves.bytes }
    /// The secure messaging confidentiality master key, 16 bytes (pyemv `icc_mk_smc`).
    public var smc: [UInt8] { smcHalves.bytes }

    /// The keys as halves, as every cryptogram uses them; arrays are made only when asked for. (The AC key's
    /// schedule is made where it is used: built on the stack, it costs less than the allocation that kept it.)
    let acHalves: DoubleLengthKey
    let smiHalves: DoubleLengthKey
    let smcHalves: DoubleLengthKey

    /// Wraps the card's own keys.
    /// - Throws: ``CryptoError/invalidKeyLength`` unless each key has 16 bytes.
    public init(ac: [UInt8], smi: [UInt8], smc: [UInt8]) throws(CryptoError) {
        acHalves = try DoubleLengthKey(ac, name: "ICC master key for AC")
        smiHalves = try DoubleLengthKey(smi, name: "ICC master key for SMI")
        smcHalves = try DoubleLengthKey(smc, name: "ICC master key for SMC")
    }

    /// Derives the three keys from the issuer master keys, as pyemv's `cvn` classes do on construction.
    ///
    /// An empty or missing PSN means `"00"` here (pyemv's `psn or "00"`), unlike the ``KeyDerivation``
    /// functions, where only a missing one does.
    /// - Parameters:
    ///   - issuerMasterKeyAC: The issuer master key for application cryptograms (`iss_mk_ac`).
    ///   - issuerMasterKeySMI: The issuer master key for script integrity (`iss_mk_smi`).
    ///   - issuerMasterKeySMC: The issuer master key for script confidentiality (`iss_mk_smc`).
    ///   - pan: The application PAN as text.
    ///   - psn: The PAN sequence number as text.
    ///   - option: The derivation method.
    public init(
        issuerMasterKeyAC: [UInt8],
        issuerMasterKeySMI: [UInt8],
        issuerMasterKeySMC: [UInt8],
        pan: String,
        psn: String? = nil,
        option: KeyDerivation.Option
    ) throws(CryptoError) {
        let psn = psn.flatMap { $0.isEmpty ? nil : $0 } ?? "00"
        func derive(_ issuerMasterKey: [UInt8]) throws(CryptoError) -> DoubleLengthKey {
            try KeyDerivation.iccMasterKeyHalves(option: option, issuerMasterKey: issuerMasterKey, pan: pan, psn: psn)
        }
        acHalves = try derive(issuerMasterKeyAC)
        smiHalves = try derive(issuerMasterKeySMI)
        smcHalves = try derive(issuerMasterKeySMC)
    }

    /// Names the type only: keys never go to logs.
    public var description: String { "ICCMasterKeys(<redacted>)" }
}
