/// The issuer's Terms and Conditions for a digitization: shown to the cardholder, then accepted.
public struct TermsAndConditions: Sendable, Hashable {
    /// The version the cardholder accepts.
    public var id: String
    /// The text to show.
    public var text: String

    /// Creates Terms and Conditions.
    public init(id: String, text: String) {
        self.id = id
        self.text = text
    }

    /// The cardholder accepted them: the token ``CardDigitizationService/digitizeCard(withTNC:)`` takes, so a
    /// digitization cannot start without acceptance.
    public func accept() -> Acceptance { Acceptance(termsAndConditions: self) }

    /// Terms and Conditions the cardholder accepted.
    public struct Acceptance: Sendable, Hashable {
        /// What was accepted.
        public let termsAndConditions: TermsAndConditions
    }
}
