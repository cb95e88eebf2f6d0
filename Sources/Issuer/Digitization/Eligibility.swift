public import Foundation

/// The issuer's yes to an ``EligibilityRequest``: the terms to accept and how long this answer holds.
public struct Eligibility: Sendable, Hashable {
    /// The answer's id, for ``DigitizationService/digitize(eligibilityID:acceptedTermsID:)``.
    public let eligibilityID: String
    /// The terms the cardholder must accept.
    public let termsAndConditions: TermsAndConditions
    /// The card's scheme.
    public let scheme: PaymentScheme
    /// After this instant the answer is void (``IssuerError/Code/eligibilityExpired``).
    public let validUntil: Date

    /// Creates an answer.
    public init(eligibilityID: String, termsAndConditions: TermsAndConditions, scheme: PaymentScheme, validUntil: Date)
    {
        self.eligibilityID = eligibilityID
        self.termsAndConditions = termsAndConditions
        self.scheme = scheme
        self.validUntil = validUntil
    }
}
