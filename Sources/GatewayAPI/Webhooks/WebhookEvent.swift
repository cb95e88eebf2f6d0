public import Foundation

/// What the gateway posts to a merchant's webhook endpoint when a payment or refund changes state: the event's id
/// and type, and the object as the API shows it then.
///
/// ```json
/// {"createdAt":"2026-11-28T19:00:00Z","data":{"payment":{…}},"id":"evt_…","type":"payment.succeeded"}
/// ```
public struct WebhookEvent: Sendable, Hashable, Codable {
    /// The kinds of event.
    public enum EventType: String, Sendable, Hashable, Codable, CaseIterable {
        /// A payment was authorized and captured.
        case paymentSucceeded = "payment.succeeded"
        /// A payment was authorized, to capture later.
        case paymentRequiresCapture = "payment.requiresCapture"
        /// The issuer or the card declined a payment.
        case paymentDeclined = "payment.declined"
        /// A payment failed (the issuer did not answer, or it was reversed).
        case paymentFailed = "payment.failed"
        /// A payment was voided before capture.
        case paymentCanceled = "payment.canceled"
        /// A refund was made.
        case refundCreated = "refund.created"
        /// Sent from the console's "Send test event", with no object.
        case test = "test"
    }

    /// The object of the event.
    public struct Data: Sendable, Hashable, Codable {
        /// The payment, for `payment.*` events (and the refunded payment's refund for `refund.created`: nil).
        public var payment: Payment?
        /// The refund, for `refund.created`.
        public var refund: Refund?

        public init(payment: Payment? = nil, refund: Refund? = nil) {
            self.payment = payment
            self.refund = refund
        }
    }

    /// `evt_…`, the same on every retry: receivers use it to ignore a delivery they already processed.
    public var id: String
    public var type: EventType
    public var createdAt: Date
    public var data: Data

    public init(id: String, type: EventType, createdAt: Date, data: Data) {
        self.id = id
        self.type = type
        self.createdAt = createdAt
        self.data = data
    }
}
