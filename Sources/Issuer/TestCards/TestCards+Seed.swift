import EMV

extension TestCards {
    /// How many load-test cards each scheme has.
    public static let loadTestCardsPerScheme = 64

    /// Approving cards for load tests and benchmarks, `loadTestCardsPerScheme` per scheme: the test BIN ranges'
    /// PANs whose three digits before the check digit are `700`–`763` (Visa first). They behave like the approve
    /// cards (1,000.00 EUR, PIN 1234); each concurrent load-test worker uses its own, so ATCs arrive in order.
    public static let loadTestCards: [TestCard] = TestCard.Scheme.allCases.flatMap { scheme in
        (0..<loadTestCardsPerScheme).compactMap { index -> TestCard? in
            let payload = (scheme == .visa ? visaPrefix : mastercardPrefix) + "7" + (index < 10 ? "0" : "") + "\(index)"
            guard let check = PAN.luhnCheckDigit(for: payload) else { return nil }
            return TestCard(pan: payload + "\(check)", scheme: scheme, behaviour: .approve)
        }
    }

    /// Inserts the account of every test and load-test card that `repository` does not hold yet, so a restarted
    /// issuer keeps its balances, ATCs and PIN counts.
    public static func seed(_ repository: any IssuerRepository, keys: IssuerKeys) async throws(IssuerError) {
        for card in all + loadTestCards {
            let account = try account(for: card, keys: keys)
            guard try await repository.account(account.keyedPAN) == nil else { continue }
            do {
                try await repository.insert(account)
            } catch where error.code == .duplicateAccount {
                // Another gateway node seeded it first.
            }
        }
    }
}
