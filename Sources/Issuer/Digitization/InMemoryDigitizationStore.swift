/// A ``DigitizationStore`` in an actor: for tests, demos and the embedded issuer (nothing survives a restart).
public actor InMemoryDigitizationStore: DigitizationStore {
    private var eligibilities: [String: EligibilityRecord] = [:]
    private var digitizations: [String: DigitizationRecord] = [:]
    private var tokens: [String: DigitizedTokenRecord] = [:]

    /// Creates an empty store.
    public init() {}

    /// Adds an eligibility answer.
    /// - Throws: ``IssuerError/Code/storageFailed`` when the id is taken.
    public func insertEligibility(_ record: EligibilityRecord) async throws(IssuerError) {
        guard eligibilities[record.id] == nil else { throw IssuerError(.storageFailed, "eligibility id taken") }
        eligibilities[record.id] = record
    }

    /// The eligibility answer with this id.
    public func eligibility(_ id: String) async throws(IssuerError) -> EligibilityRecord? {
        eligibilities[id]
    }

    /// Adds a pending digitization.
    /// - Throws: ``IssuerError/Code/storageFailed`` when the id is taken.
    public func insertDigitization(_ record: DigitizationRecord) async throws(IssuerError) {
        guard digitizations[record.id] == nil else { throw IssuerError(.storageFailed, "digitization id taken") }
        digitizations[record.id] = record
    }

    /// Runs `change` on the digitization and stores it.
    public func updateDigitization<Result: Sendable>(
        _ id: String, _ change: @Sendable (inout DigitizationRecord) -> Result
    ) async throws(IssuerError) -> Result? {
        Self.update(&digitizations, id, change)
    }

    /// Adds a digitized token.
    /// - Throws: ``IssuerError/Code/storageFailed`` when the id is taken.
    public func insertDigitizedToken(_ record: DigitizedTokenRecord) async throws(IssuerError) {
        guard tokens[record.tokenID] == nil else { throw IssuerError(.storageFailed, "token id taken") }
        tokens[record.tokenID] = record
    }

    /// The digitized token with this id.
    public func digitizedToken(_ tokenID: String) async throws(IssuerError) -> DigitizedTokenRecord? {
        tokens[tokenID]
    }

    /// Runs `change` on the token record and stores it.
    public func updateDigitizedToken<Result: Sendable>(
        _ tokenID: String, _ change: @Sendable (inout DigitizedTokenRecord) -> Result
    ) async throws(IssuerError) -> Result? {
        Self.update(&tokens, tokenID, change)
    }

    /// Runs `change` on the record with `id` in place; nil when there is none.
    private static func update<Record, Result>(
        _ records: inout [String: Record], _ id: String, _ change: (inout Record) -> Result
    ) -> Result? {
        guard var record = records[id] else { return nil }
        let result = change(&record)
        records[id] = record
        return result
    }
}
