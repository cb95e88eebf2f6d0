/// Cardholder Verification Method list, tag 8E (EMV 4.4 Book 3, annex C3): amounts X and Y, then CV rules in
/// priority order.
public struct CVMList: Hashable, Sendable, CustomStringConvertible {
    /// Amount X, binary, in the application currency's minor units (for conditions 06 and 07).
    public let amountX: UInt32
    /// Amount Y, binary, in the application currency's minor units (for conditions 08 and 09).
    public let amountY: UInt32
    /// The rules, first to try first.
    public let rules: [CVMRule]

    /// Creates a list from its parts.
    public init(amountX: UInt32 = 0, amountY: UInt32 = 0, rules: [CVMRule]) {
        self.amountX = amountX
        self.amountY = amountY
        self.rules = rules
    }

    /// Parses the value of tag 8E.
    ///
    /// - Throws: ``ValueError/Code/invalidLength`` with the offset when the 8 amount bytes are missing or the
    ///   rules end in half a rule.
    public init(bytes input: some Collection<UInt8>) throws {
        let b = Array(input)
        guard b.count >= 8 else {
            throw ValueError(
                code: .invalidLength, offset: b.count,
                message: "a CVM list starts with 8 bytes of amounts, got \(b.count)")
        }
        guard (b.count - 8) % 2 == 0 else {
            throw ValueError(
                code: .invalidLength, offset: b.count - 1, message: "CV rules are 2 bytes each; the last one is cut")
        }
        let word = { (at: Int) in b[at..<(at + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        let rules = stride(from: 8, to: b.count, by: 2).map {
            CVMRule(codeByte: b[$0], condition: CVMCondition(rawValue: b[$0 + 1]))
        }
        self.init(amountX: word(0), amountY: word(4), rules: rules)
    }

    /// The value of tag 8E.
    public var bytes: [UInt8] {
        let amounts = [amountX, amountY].flatMap { value in
            (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
        }
        return amounts + rules.flatMap(\.bytes)
    }

    /// Amounts and rules, one per line.
    public var description: String {
        (["CVM list (X \(amountX), Y \(amountY))"] + rules.map { "  \($0)" }).joined(separator: "\n")
    }
}
