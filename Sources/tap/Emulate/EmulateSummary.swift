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

    var text: String {
        "served \(transactions) transactions (\(commands) commands); last ATC \(lastATC.map(String.init) ?? "none"); "
            + "\(keysRemaining) keys left"
    }
}
