public import CardEmulator
public import Foundation

/// The issuer's answer to an eligible card (Thales: `EligibilityAcceptableData`): the Terms and Conditions to accept
/// and how long the answer holds.
public struct EligibilityAcceptableData: Sendable, Hashable {
    /// The issuer's identifier of this eligibility answer.
    public var eligibilityID: String
    /// The Terms and Conditions the cardholder must accept before digitization.
    public var termsAndConditions: TermsAndConditions
    /// The scheme of the token the issuer will make.
    public var scheme: CardProfile.Scheme
    /// After this instant the answer no longer holds.
    public var validUntil: Date

    /// Creates an answer.
    public init(
        eligibilityID: String, termsAndConditions: TermsAndConditions, scheme: CardProfile.Scheme, validUntil: Date
    ) {
        self.eligibilityID = eligibilityID
        self.termsAndConditions = termsAndConditions
        self.scheme = scheme
        self.validUntil = validUntil
    }
}
