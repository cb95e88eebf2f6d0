/// A cardholder verification rule: two bytes of a CVM list (EMV 4.4 Book 3, annex C3).
///
/// Byte 1 holds the method in bits 6-1 and, in bit 7, whether to try the next rule if this one fails; bit 8
/// is reserved and kept as read, so a rule re-encodes to the same bytes.
public struct CVMRule: Hashable, Sendable, CustomStringConvertible {
    /// Byte 1 as read: the CVM code with its control bits.
    public let codeByte: UInt8
    /// Byte 2: when the rule applies.
    public let condition: CVMCondition

    /// Creates a rule from its two bytes.
    public init(codeByte: UInt8, condition: CVMCondition) {
        self.codeByte = codeByte
        self.condition = condition
    }

    /// Creates a rule from its parts.
    public init(method: CVMMethod, applyNextIfUnsuccessful: Bool, condition: CVMCondition) {
        self.init(codeByte: method.rawValue | (applyNextIfUnsuccessful ? 0x40 : 0x00), condition: condition)
    }

    /// The verification method (bits 6-1).
    public var method: CVMMethod { CVMMethod(rawValue: codeByte) }

    /// Bit 7: apply the succeeding rule if this one is unsuccessful; clear means fail cardholder verification.
    public var applyNextIfUnsuccessful: Bool { codeByte & 0x40 != 0 }

    /// The two bytes.
    public var bytes: [UInt8] { [codeByte, condition.rawValue] }

    /// Method, condition and the failure behaviour.
    public var description: String {
        "\(method.name), \(condition.name)\(applyNextIfUnsuccessful ? ", else next rule" : ", else fail")"
    }
}
