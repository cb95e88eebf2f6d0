/// How the cardholder asked for the digitization (Thales: `EligibilityData`).
public struct EligibilityData: Sendable, Hashable {
    /// How the card details were captured.
    public enum InputMethod: String, Sendable, Hashable, CaseIterable {
        /// Typed by the cardholder.
        case manual
        /// Pushed by the issuer's app from its own records.
        case bankApplication
    }

    /// How the card details were captured.
    public var inputMethod: InputMethod
    /// The language for the Terms and Conditions, e.g. `en`.
    public var language: String

    /// Creates eligibility data.
    public init(inputMethod: InputMethod = .bankApplication, language: String = "en") {
        self.inputMethod = inputMethod
        self.language = language
    }
}
