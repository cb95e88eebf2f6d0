/// Cardholder Verification Method Results, tag 9F34 (EMV 4.4 Book 4, annex A4, table 33): the rule the
/// terminal performed last and how it went.
public struct CVMResults: Hashable, Sendable, CustomStringConvertible {
    /// Byte 3: the outcome.
    public struct Result: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The result code.
        public let rawValue: UInt8
        /// Creates a result from its code.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// 00: unknown (e.g. signature, or online PIN before authorisation).
        public static let unknown = Result(rawValue: 0x00)
        /// 01: failed.
        public static let failed = Result(rawValue: 0x01)
        /// 02: successful.
        public static let successful = Result(rawValue: 0x02)

        /// `Unknown`, `Failed`, `Successful` or `RFU`.
        public var description: String {
            switch rawValue {
            case 0x00: "Unknown"
            case 0x01: "Failed"
            case 0x02: "Successful"
            default: "RFU"
            }
        }
    }

    /// Bytes 1-2: the CVM code byte and condition of the rule performed (method ``CVMMethod/notPerformed``,
    /// `3F 00`, when none was).
    public let rule: CVMRule
    /// Byte 3: the outcome.
    public let result: Result

    /// Creates results from their parts.
    public init(rule: CVMRule, result: Result) {
        self.rule = rule
        self.result = result
    }

    /// Parses the value of tag 9F34.
    ///
    /// - Throws: ``ValueError/Code/invalidLength`` unless exactly 3 bytes are given.
    public init(bytes input: some Collection<UInt8>) throws {
        let b = Array(input)
        guard b.count == 3 else {
            throw ValueError(code: .invalidLength, offset: 0, message: "CVM results have 3 bytes, got \(b.count)")
        }
        self.init(
            rule: CVMRule(codeByte: b[0], condition: CVMCondition(rawValue: b[1])), result: Result(rawValue: b[2]))
    }

    /// The method performed.
    public var method: CVMMethod { rule.method }
    /// The condition of the rule performed.
    public var condition: CVMCondition { rule.condition }

    /// The value of tag 9F34.
    public var bytes: [UInt8] { rule.bytes + [result.rawValue] }

    /// Method, condition and result.
    public var description: String { "\(rule.method.name), \(rule.condition.name): \(result)" }
}
