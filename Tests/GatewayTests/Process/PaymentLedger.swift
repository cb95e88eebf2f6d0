import Foundation
import GatewayAPI
import Issuer

/// What the clients of a crash test saw: the payments acknowledged to them, and anything unexpected.
actor PaymentLedger {
    /// One acknowledged (201) payment with the request that got it.
    struct Entry: Sendable {
        let payment: Payment
        let card: TestCard
        let idempotencyKey: String
        let request: Data
        let response: Data
    }

    /// A request that the stop left without an answer.
    struct Unanswered: Sendable {
        let idempotencyKey: String
        let request: Data
    }

    private(set) var acknowledged: [Entry] = []
    /// The issuer-timeout card's requests that the stop cut off.
    private(set) var unanswered: [Unanswered] = []
    /// Set just before the server is stopped: from then on a failed request is expected.
    private(set) var isStopping = false
    /// What went wrong that is not the kill's doing.
    private(set) var problems: [String] = []

    func record(_ entry: Entry) { acknowledged.append(entry) }
    func record(_ request: Unanswered) { unanswered.append(request) }
    func startStopping() { isStopping = true }
    func note(_ problem: String) { problems.append(problem) }
}
