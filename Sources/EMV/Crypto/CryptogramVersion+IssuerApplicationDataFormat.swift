extension CryptogramVersion {
    /// The layout of the issuer application data the card sends with this version's cryptograms.
    public var issuerApplicationDataFormat: IssuerApplicationDataFormat {
        switch self {
        case .visa10, .visa18: .visa
        case .visa22: .visaFormat2
        case .interac133: .interac
        case .mastercard16, .mastercard17, .mastercard20, .mastercard21: .mastercard
        }
    }
}
