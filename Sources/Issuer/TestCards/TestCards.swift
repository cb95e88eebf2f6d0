import EMV

/// The test cards: public PANs with documented, deterministic outcomes at the issuer host, one per behaviour and
/// scheme (the table is in the module's documentation).
///
/// The three digits before the check digit name the response code (`…051 5` → `51`); the approving cards are the
/// shipped profiles' own PANs. Accounts are in EUR, expire 2030-12 like the profiles, hold 1,000.00 EUR (5.00 for
/// insufficient funds) and have PIN 1234 (the incorrect-PIN card has none that matches).
public enum TestCards {
    /// The Visa cards' BIN range prefix: the shipped Visa profile's issuer master keys cover it.
    public static let visaPrefix = "476173900101"
    /// The Mastercard cards' BIN range prefix: the shipped Mastercard profile's issuer master keys cover it.
    public static let mastercardPrefix = "541333900000"
    /// The PIN of every test account that has one.
    public static let pin = "1234"
    /// The balance of every test account but the insufficient-funds one, in EUR cents.
    public static let balance = 100_000
    /// The insufficient-funds accounts' balance, in EUR cents.
    public static let lowBalance = 500

    /// Every test card, Visa first, in behaviour order.
    public static let all: [TestCard] = [
        TestCard(pan: "4761739001010119", scheme: .visa, behaviour: .approve),
        TestCard(pan: "4761739001010515", scheme: .visa, behaviour: .insufficientFunds),
        TestCard(pan: "4761739001010416", scheme: .visa, behaviour: .lost),
        TestCard(pan: "4761739001010432", scheme: .visa, behaviour: .stolen),
        TestCard(pan: "4761739001010549", scheme: .visa, behaviour: .expired),
        TestCard(pan: "4761739001010051", scheme: .visa, behaviour: .doNotHonour),
        TestCard(pan: "4761739001010655", scheme: .visa, behaviour: .onlinePINRequired),
        TestCard(pan: "4761739001010556", scheme: .visa, behaviour: .incorrectPIN),
        TestCard(pan: "4761739001010994", scheme: .visa, behaviour: .issuerTimeout),
        TestCard(pan: "5413339000001513", scheme: .mastercard, behaviour: .approve),
        TestCard(pan: "5413339000000515", scheme: .mastercard, behaviour: .insufficientFunds),
        TestCard(pan: "5413339000000416", scheme: .mastercard, behaviour: .lost),
        TestCard(pan: "5413339000000432", scheme: .mastercard, behaviour: .stolen),
        TestCard(pan: "5413339000000549", scheme: .mastercard, behaviour: .expired),
        TestCard(pan: "5413339000000051", scheme: .mastercard, behaviour: .doNotHonour),
        TestCard(pan: "5413339000000655", scheme: .mastercard, behaviour: .onlinePINRequired),
        TestCard(pan: "5413339000000556", scheme: .mastercard, behaviour: .incorrectPIN),
        TestCard(pan: "5413339000000994", scheme: .mastercard, behaviour: .issuerTimeout),
    ]

    /// The card with this behaviour and scheme.
    public static func card(_ behaviour: TestCard.Behaviour, _ scheme: TestCard.Scheme) -> TestCard? {
        all.first { $0.behaviour == behaviour && $0.scheme == scheme }
    }

    /// The issuer's account for `card`, with its PAN hashed and encrypted under `keys`.
    /// - Throws: ``IssuerError/invalidPAN`` when the card's PAN is not valid (never for the catalogue's).
    public static func account(for card: TestCard, keys: IssuerKeys) throws(IssuerError) -> CardAccount {
        guard let pan = try? PAN(card.pan), let expiry = try? ExpiryDate(year: 2030, month: 12) else {
            throw IssuerError(.invalidPAN, "a test card's PAN is not a valid PAN")
        }
        var account = try keys.openAccount(
            pan: pan, pin: card.behaviour == .incorrectPIN ? nil : pin, expiry: expiry, currency: .eur,
            availableBalance: card.behaviour == .insufficientFunds ? lowBalance : balance)
        switch card.behaviour {
        case .approve, .insufficientFunds: break
        case .lost: account.status = .lost
        case .stolen: account.status = .stolen
        case .expired: account.status = .expired
        case .doNotHonour: account.status = .blocked
        case .onlinePINRequired, .incorrectPIN: account.requiresStrongCustomerAuthentication = true
        case .issuerTimeout: account.simulatesNoResponse = true
        }
        return account
    }

    /// A repository holding every test card's account.
    public static func repository(keys: IssuerKeys) throws(IssuerError) -> InMemoryIssuerRepository {
        try InMemoryIssuerRepository(
            accounts: all.map { (card) throws(IssuerError) in try account(for: card, keys: keys) })
    }
}
