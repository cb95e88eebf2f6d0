/// A ``OneTimeCodeSender`` that keeps what it sends, like an SMS gateway's test inbox: tests and demos read the
/// code the cardholder would receive from it.
///
/// ```swift
/// let outbox = OneTimeCodeOutbox()
/// let pending = try await service.digitize(eligibilityID: id, acceptedTermsID: terms.id)
/// let code = try #require(await outbox.lastCode(for: pending.digitizationID))
/// ```
public actor OneTimeCodeOutbox: OneTimeCodeSender {
    /// Every message sent, oldest first.
    public private(set) var messages: [OneTimeCodeMessage] = []
    /// The phone number shown masked as the destination.
    public nonisolated let phoneNumber: String
    /// When set, ``send(_:)`` fails with ``IssuerError/Code/codeDeliveryFailed`` (an SMS gateway outage).
    public var isFailing = false

    /// Creates an empty outbox.
    public init(phoneNumber: String = "+447700900123") {
        self.phoneNumber = phoneNumber
    }

    /// Keeps the message and answers `SMS to •••• 0123`.
    public func send(_ message: OneTimeCodeMessage) async throws(IssuerError) -> String {
        guard !isFailing else { throw IssuerError(.codeDeliveryFailed, "the SMS gateway is down") }
        messages.append(message)
        return "SMS to •••• \(phoneNumber.suffix(4))"
    }

    /// The last code sent for a digitization; nil when none was.
    public func lastCode(for digitizationID: String) -> String? {
        messages.last { $0.digitizationID == digitizationID }?.code
    }

    /// Makes ``send(_:)`` fail (true) or work again (false).
    public func setFailing(_ failing: Bool) {
        isFailing = failing
    }
}
