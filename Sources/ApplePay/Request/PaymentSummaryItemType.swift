/// Whether a summary item's amount is known, as PassKit's `PKPaymentSummaryItemType`.
public enum PaymentSummaryItemType: String, Hashable, Sendable, Codable, CaseIterable {
    /// The amount is final.
    case final
    /// The amount is an estimate, known later (a taxi fare); the sheet shows it as pending.
    case pending
}
