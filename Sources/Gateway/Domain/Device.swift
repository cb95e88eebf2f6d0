public import Foundation

/// A merchant's reader device (a phone running the merchant app), known by the id its SDK chose; registered at the
/// merchant's first prepare on it, when it gets the merchant's terminal id and PIN encryption key. The same phone
/// used by another merchant is another device of that merchant, with its own.
public struct Device: Sendable, Hashable, Codable {
    /// The merchant the registration belongs to.
    public var merchantId: String
    /// The SDK's id for the device.
    public var id: String
    /// Terminal id, ISO 8583 field 41: 8 characters, unique.
    public var terminalId: String
    /// When it was first prepared.
    public var provisionedAt: Date
    /// The id of its PIN encryption key; nil until stored.
    public var pinKeyId: String?

    /// Creates a device.
    public init(merchantId: String, id: String, terminalId: String, provisionedAt: Date, pinKeyId: String? = nil) {
        self.merchantId = merchantId
        self.id = id
        self.terminalId = terminalId
        self.provisionedAt = provisionedAt
        self.pinKeyId = pinKeyId
    }

    /// Checks a device id from an SDK: 1 to 64 characters of letters, digits and `-_.:`.
    /// - Throws: ``DomainError/Code/invalidInput``.
    static func validate(id: String) throws(DomainError) {
        guard (1...64).contains(id.count),
            id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) })
        else { throw DomainError("the device id must be 1 to 64 letters, digits or -_.:") }
    }

    /// A new random terminal id: `T` and 7 digits.
    static func newTerminalId() -> String { "T" + EntityID.digits(7) }
}
