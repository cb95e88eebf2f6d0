import Foundation
import HTTPTypes
import GatewayAPI
import ISO8583
import Issuer
import _SQLStorage

extension PaymentService {
    /// How many due reversals one sweep sends.
    static let reversalBatch = 20

    /// How long a reversal being sent is claimed: longer than the issuer's timeout.
    var reversalLease: TimeInterval {
        issuerTimeout.timeInterval + 1
    }

    /// Marks a payment whose 0100 got no answer as failed and reverses it now; a reversal that is not acknowledged
    /// stays due and ``sendDueReversals()`` retries it. `answer` is stored as the request's idempotent answer in
    /// the same transaction, so no crash leaves the key without one.
    func failAndReverse(
        _ record: PaymentRecord, answer: (claim: IdempotentResponder.Claim, error: GatewayAPIError)? = nil
    ) async throws {
        var record = record
        let now = clock()
        record.payment.status = .failed
        record.payment.failureCode = "issuerUnavailable"
        record.payment.updatedAt = now
        record.forgetCardData()
        // Claimed for the attempt below, so the sweep does not send the same reversal alongside it.
        record.nextReversalAt = now.addingTimeInterval(reversalLease)
        let body = answer.map { ProblemMiddleware<GatewayRequestContext>.body($0.error) }
        try await save(record, at: now, actor: "gateway", action: "failed", detail: "no issuer answer; reversal due") {
            executor in
            if let answer, let body {
                try await answer.claim.write(
                    status: .init(code: answer.error.code.httpStatus), body: body, on: executor)
            }
        }
        if let answer, let body { answer.claim.didStore(status: .init(code: answer.error.code.httpStatus), body: body) }
        _ = try? await reverse(record)
    }

    /// Sends the payment's 0400 once; on acknowledgement (`00`, or `25`: the issuer never saw the original) clears
    /// it, otherwise schedules the next attempt with exponential backoff (1 s doubling, at most 5 min).
    /// - Returns: whether the issuer acknowledged.
    @discardableResult
    func reverse(_ record: PaymentRecord) async throws -> Bool {
        guard let sealed = record.reversalMessage else { return true }
        let message = try ISO8583Message(
            decoding: try keys.open(sealed, authenticating: Array(record.payment.id.utf8)), using: .contactless)
        let response = try? await issuer.send(message, timeout: issuerTimeout)
        let code = response.map { ResponseCode(rawValue: $0[.responseCode]?.text ?? "") }
        let acknowledged = code == .approved || code == .originalNotFound
        let now = clock()
        let id = record.payment.id
        let merchantId = record.payment.merchantId
        try await database.transaction { executor in
            guard var current = try await repository.payment(id, merchantId: merchantId, locking: true, on: executor)
            else { return }
            let attempt = current.reversalAttempts + 1
            if acknowledged {
                current.reversalMessage = nil
                current.nextReversalAt = nil
            } else {
                current.reversalAttempts += 1
                let delay = min(300, pow(2, Double(min(current.reversalAttempts, 9))))
                current.nextReversalAt = now.addingTimeInterval(delay)
            }
            try await repository.update(current, on: executor)
            try await AuditLog.record(
                on: executor, at: now, actor: "gateway", entity: "payment", id: id,
                action: acknowledged ? "reversed" : "reversalRetry", detail: "attempt \(attempt)")
        }
        return acknowledged
    }

    /// Sends the reversals that are due; returns how many were acknowledged.
    @discardableResult
    func sendDueReversals() async throws -> Int {
        let now = clock()
        let lease = now.addingTimeInterval(reversalLease)
        let due = try await database.transaction { executor in
            // Claimed with a lease: another node's sweep skips them while these are sent; a node that dies mid-way
            // leaves them due again when the lease ends.
            var due = try await repository.reversalsDue(at: now, limit: Self.reversalBatch, on: executor)
            for index in due.indices {
                due[index].nextReversalAt = lease
                try await repository.update(due[index], on: executor)
            }
            return due
        }
        var acknowledged = 0
        for record in due where (try? await reverse(record)) == true { acknowledged += 1 }
        return acknowledged
    }

    /// Ends what a crash or a silent reader left open: `processing` payments last touched before `cutoff` (their
    /// node died between sending and storing the answer) become failed with their reversal due; `requiresPIN`
    /// payments past their PIN window become failed and lose their card data.
    @discardableResult
    func recoverAbandoned(before cutoff: Date) async throws -> Int {
        let now = clock()
        return try await database.transaction { executor in
            let abandoned = try await repository.abandoned(before: cutoff, now: now, limit: 100, on: executor)
            for var record in abandoned {
                let wasInFlight = record.payment.status == .processing
                record.payment.status = .failed
                record.payment.failureCode = wasInFlight ? "issuerUnavailable" : "pinNotAllowed"
                record.payment.updatedAt = now
                record.forgetCardData()
                if wasInFlight { record.nextReversalAt = now } else { record.reversalMessage = nil }
                try await repository.update(record, on: executor)
                if wasInFlight {
                    // The request that made it died unanswered: a retry with its key learns what became of it.
                    let answer = Self.issuerUnavailable(paymentId: record.payment.id)
                    try await IdempotencyStore().completeAbandoned(
                        paymentId: record.payment.id, status: answer.code.httpStatus,
                        body: ProblemMiddleware<GatewayRequestContext>.body(answer),
                        on: executor)
                }
                try await AuditLog.record(
                    on: executor, at: now, actor: "gateway", entity: "payment", id: record.payment.id,
                    action: "failed", detail: wasInFlight ? "abandoned in flight; reversal due" : "PIN window closed")
                try await Self.announce(record.payment, on: executor, now: now)
            }
            return abandoned.count
        }
    }
}
