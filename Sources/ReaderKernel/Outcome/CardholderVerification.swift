/// The cardholder verification method the kernel settled on.
public enum CardholderVerification: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// No CVM: under the CVM required limit, or the card asked for none.
    case noCVM
    /// The cardholder enters a PIN that goes online to the issuer.
    case onlinePIN
    /// The cardholder signs the receipt.
    case signature
    /// The phone verified the cardholder (consumer device CVM, CDCVM; Kernel 2's "confirmation code verified").
    case consumerDevice
    /// Not decided: the transaction ended before cardholder verification.
    case notApplicable

    /// A short phrase.
    public var description: String {
        switch self {
        case .noCVM: "no CVM"
        case .onlinePIN: "online PIN"
        case .signature: "signature"
        case .consumerDevice: "consumer device CVM (verified on the phone)"
        case .notApplicable: "not applicable"
        }
    }
}
