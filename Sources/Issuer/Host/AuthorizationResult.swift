public import ISO8583
/// What the issuer host decided about one authorization request, before it becomes field 39.
public enum AuthorizationResult: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Approved: the amount is held against the available balance.
    case approved
    /// A required field is missing or unreadable.
    case formatError
    /// No account has this PAN's keyed hash.
    case unknownCard
    /// The host has no issuer master keys for the card's BIN range, or storage failed.
    case systemMalfunction
    /// The ARQC does not verify, or the amount or currency of the request differ from the cryptogram's.
    case cryptogramFailure
    /// The ATC is not greater than the last one the host accepted for this card.
    case cryptogramReplayed
    /// The account is reported lost.
    case lostCard
    /// The account is reported stolen.
    case stolenCard
    /// The account, or the expiry date of the request, is expired or does not match the account's.
    case expiredCard
    /// The account is blocked.
    case doNotHonour
    /// The transaction currency is not the account's.
    case invalidTransaction
    /// The amount is over the account's per-transaction limit.
    case exceedsAmountLimit
    /// Online PIN is required (amount over the online-PIN limit, or strong customer authentication) and the request
    /// carries no PIN block.
    case pinRequired
    /// The PIN block does not hold the account's PIN.
    case incorrectPIN
    /// The PIN try limit is reached (now or before).
    case pinTriesExceeded
    /// The available balance is below the amount.
    case insufficientFunds
    /// The host does not answer (a test card's simulated issuer timeout): the transport stays silent.
    case noResponse

    /// Field 39 for this result; nil for ``noResponse``.
    public var responseCode: ResponseCode? {
        switch self {
        case .approved: .approved
        case .formatError: .formatError
        case .unknownCard: .invalidCardNumber
        case .systemMalfunction: .systemMalfunction
        case .cryptogramFailure: .cryptogramFailure
        case .cryptogramReplayed: .cryptogramReplayed
        case .lostCard: .lostCard
        case .stolenCard: .stolenCard
        case .expiredCard: .expiredCard
        case .doNotHonour: .doNotHonour
        case .invalidTransaction: .invalidTransaction
        case .exceedsAmountLimit: .exceedsAmountLimit
        case .pinRequired: .pinRequired
        case .incorrectPIN: .incorrectPIN
        case .pinTriesExceeded: .pinTriesExceeded
        case .insufficientFunds: .insufficientFunds
        case .noResponse: nil
        }
    }

    /// The case name.
    public var description: String { rawValue }
}
