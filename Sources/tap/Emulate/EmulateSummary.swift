/// What `tap emulate` prints when it stops.
struct EmulateSummary: Encodable {
    /// Transactions that took an ATC.
    var transactions: Int
    /// The ATC of the last transaction, nil before the first.
    var lastATC: Int?
    /// Limited-use keys left.
    var keysRemaining: Int
    /// Command APDUs answered.
    var commands: Int
    /// Loyalty pass cryptograms given; nil without `--pass`.
    var passesServed: Int? = nil

    private enum CodingKeys: String, CodingKey {
        case transactions, lastATC, keysRemaining, commands, passesServed
    }

    /// Every field, `lastATC` as null before the first transaction (scripts see the key either way).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(transactions, forKey: .transactions)
        try container.encode(lastATC, forKey: .lastATC)
        try container.encode(keysRemaining, forKey: .keysRemaining)
        try container.encode(commands, forKey: .commands)
        try container.encodeIfPresent(passesServed, forKey: .passesServed)
    }

    /// One line for people.
    var text: String {
        "served \(transactions) transactions (\(commands) commands); last ATC \(lastATC.map(String.init) ?? "none"); "
            + "\(keysRemaining) keys left" + (passesServed.map { "; \($0) loyalty passes given" } ?? "")
    }
}
