import EMV
import GatewayAPI

extension PaymentCard {
    /// The masked card of `pan`: its BIN, last four and scheme.
    init(pan: PAN, entryMode: String) {
        let digits = pan.digits
        self.init(
            bin: String(digits.prefix(6)), last4: String(digits.suffix(4)), scheme: Self.scheme(ofBIN: digits),
            entryMode: entryMode)
    }

    /// The masked card of stored columns: the scheme follows from the BIN.
    init?(bin: String?, last4: String?, entryMode: String?) {
        guard let bin, let last4 else { return nil }
        self.init(bin: bin, last4: last4, scheme: Self.scheme(ofBIN: bin), entryMode: entryMode ?? "contactlessChip")
    }

    /// `visa` (4), `mastercard` (51–55, 2221–2720) or `unknown`.
    static func scheme(ofBIN digits: String) -> String {
        if digits.hasPrefix("4") { return "visa" }
        let two = Int(digits.prefix(2)) ?? 0
        let four = Int(digits.prefix(4)) ?? 0
        if (51...55).contains(two) || (2221...2720).contains(four) { return "mastercard" }
        return "unknown"
    }
}
