/// Where ``DigitizationService`` keeps its eligibility answers, pending digitizations and digitized tokens:
/// ``InMemoryDigitizationStore`` here, the gateway's `SQLIssuerRepository` in SQL (tables `issuer_eligibilities`,
/// `issuer_digitizations`, `issuer_digitized_tokens`). Each `update` is one unit of work (the row locked), so two
/// calls on one record never both pass a check (code tries, the key high-water mark).
public protocol DigitizationStore: Sendable {
    /// Adds an eligibility answer.
    func insertEligibility(_ record: EligibilityRecord) async throws(IssuerError)
    /// The eligibility answer with this id; nil when there is none.
    func eligibility(_ id: String) async throws(IssuerError) -> EligibilityRecord?

    /// Adds a pending digitization.
    func insertDigitization(_ record: DigitizationRecord) async throws(IssuerError)
    /// Runs `change` on the digitization and stores it, in one unit; nil (nothing run) when there is none.
    func updateDigitization<Result: Sendable>(
        _ id: String, _ change: @Sendable (inout DigitizationRecord) -> Result
    ) async throws(IssuerError) -> Result?

    /// Adds a digitized token.
    func insertDigitizedToken(_ record: DigitizedTokenRecord) async throws(IssuerError)
    /// The digitized token with this id; nil when there is none.
    func digitizedToken(_ tokenID: String) async throws(IssuerError) -> DigitizedTokenRecord?
    /// Runs `change` on the token record and stores it, in one unit; nil (nothing run) when there is none.
    func updateDigitizedToken<Result: Sendable>(
        _ tokenID: String, _ change: @Sendable (inout DigitizedTokenRecord) -> Result
    ) async throws(IssuerError) -> Result?
}
