/// The terms and conditions the cardholder must accept before a card is digitized; the wallet shows ``text`` and
/// sends back ``id``.
public struct TermsAndConditions: Sendable, Hashable, Codable {
    /// The version's identifier, sent back with ``DigitizationService/digitize(eligibilityID:acceptedTermsID:)``.
    public var id: String
    /// The text to show.
    public var text: String

    /// Creates terms.
    public init(id: String, text: String) {
        self.id = id
        self.text = text
    }

    /// The test issuer's terms.
    public static let standard = TermsAndConditions(
        id: "tc-2026-11",
        text: "The issuer will create a digital card for this device. Payments with it are charged to your card.")
}
