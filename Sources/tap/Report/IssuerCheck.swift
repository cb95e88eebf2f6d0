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

    init(profile: CardProfile, authorization: CardAuthorizationData) throws {
        let nodes = try authorization.iccDataObjects()
        let pan = authorization.pan.digits
        let psn = authorization.panSequenceNumber.map { [$0].hexString }
        cryptogramVersion = "\(try profile.resolvedCryptogramVersion())"
        arqcVerified = try profile.issuerVerifiesCryptogram(
            inAuthorizationData: nodes, pan: pan, panSequenceNumber: psn)
        let tampered = try TLV.parse(
            try TLV.Serializer.serialize { serializer in
                for node in nodes {
                    guard node.tag == .amountAuthorised else {
                        try serializer.append(node)
                        continue
                    }
                    let amount = try Amount(n12: node.value, currency: .eur)
                    try serializer.append(
                        tag: .amountAuthorised,
                        value: try Amount(minorUnits: amount.minorUnits + 1, currency: .eur).n12())
                }
            })
        tamperedAmountRejected = try !profile.issuerVerifiesCryptogram(
            inAuthorizationData: tampered, pan: pan, panSequenceNumber: psn)
    }
}
