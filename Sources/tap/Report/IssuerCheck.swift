import CardEmulator
import EMV
import ReaderKernel

/// The issuer's side of the demo: does the ARQC the reader received verify under the issuer master key that
/// personalised the card, and does it fail once the amount is changed by one minor unit?
struct IssuerCheck: Encodable {
    /// The cryptogram version read from the IAD, e.g. `visa18`.
    var cryptogramVersion: String
    /// Whether the ARQC verifies over the field-55 data as received.
    var arqcVerified: Bool
    /// Whether the same ARQC fails for the amount plus one minor unit (it must).
    var tamperedAmountRejected: Bool

    init(profile: CardProfile, authorization: AuthorizationData) throws {
        let nodes = try authorization.iccDataObjects()
        guard let iad = nodes.first(.issuerApplicationData), let arqc = nodes.first(.applicationCryptogram),
            let aid = nodes.first(.dedicatedFileName) ?? nodes.first(.applicationIdentifier)
        else { throw IssuerCheckError("field 55 lacks the IAD, the cryptogram or the AID") }
        let version = try CryptogramVersion(issuerApplicationData: Array(iad.value), applicationIdentifier: aid.value)
        let cryptograms = try CardCryptograms(
            version: version,
            issuerMasterKeyAC: profile.issuerMasterKeys.ac.bytes,
            issuerMasterKeySMI: profile.issuerMasterKeys.smi.bytes,
            issuerMasterKeySMC: profile.issuerMasterKeys.smc.bytes,
            pan: authorization.pan.digits,
            psn: authorization.panSequenceNumber.map { [$0].hexString })
        var data = try CryptogramData(version: version, authorizationData: nodes)
        cryptogramVersion = "\(version)"
        arqcVerified = try cryptograms.verifyAC(Array(arqc.value), data: data)
        let amount = try Amount(n12: data.amountAuthorized, currency: .eur)
        data.amountAuthorized = try Amount(minorUnits: amount.minorUnits + 1, currency: .eur).n12()
        tamperedAmountRejected = try !cryptograms.verifyAC(Array(arqc.value), data: data)
    }
}

/// The authorization data cannot be checked at all.
struct IssuerCheckError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
