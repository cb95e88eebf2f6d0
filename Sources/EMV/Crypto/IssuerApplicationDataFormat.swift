/// How a cryptogram version's card lays out its issuer application data (tag 9F10).
public enum IssuerApplicationDataFormat: Sendable, Hashable {
    /// Visa formats 0, 1 and 3: `06` ‖ DKI ‖ CVN ‖ 4-byte CVR ‖ optional IDD (``VisaIssuerApplicationData``).
    case visa
    /// Visa format 2: `1F` ‖ CVN ‖ DKI ‖ 5-byte CVR ‖ 24-byte IDD (``VisaFormat2IssuerApplicationData``).
    case visaFormat2
    /// Mastercard M/Chip: DKI ‖ CVN ‖ 6-byte CVR ‖ DAC/IDN ‖ counters ‖ … (``MastercardIssuerApplicationData``).
    case mastercard
    /// Interac's own layout, which this package does not read: its cryptogram takes the whole IAD.
    case interac
}
