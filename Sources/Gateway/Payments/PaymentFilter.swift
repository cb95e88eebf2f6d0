import Foundation
import GatewayAPI

/// Which of a merchant's payments a listing shows (the API's `GET /v1/payments` uses status and last four; the
/// console all of them). Nil fields do not filter.
struct PaymentFilter: Sendable, Hashable {
    var deviceId: String?
    var status: PaymentStatus?
    var last4: String?
    /// The card's first six digits.
    var bin: String?
    /// Created at or after.
    var createdFrom: Date?
    /// Created before.
    var createdBefore: Date?
    /// Minor units, inclusive.
    var minimumAmount: Int?
    var maximumAmount: Int?
}
