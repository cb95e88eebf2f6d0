import EMV
import Foundation
import GatewayAPI
import _SQLStorage

extension PaymentService {
    /// The merchant's payment (a reader session sees its own device's only).
    func payment(_ id: String, caller: Caller) async throws -> Payment {
        guard let record = try await repository.payment(id, merchantId: caller.merchantId, on: database),
            caller.sees(record)
        else { throw GatewayAPIError(code: .notFound, message: "no such payment") }
        return record.payment
    }

    /// A page of the merchant's payments, newest first (a reader session's: its own device's).
    func payments(
        caller: Caller, filter: PaymentFilter, startingAfter: String?, limit: Int
    ) async throws -> PaymentList {
        guard (1...100).contains(limit) else {
            throw GatewayAPIError(code: .invalidRequest, message: "limit must be between 1 and 100")
        }
        if let startingAfter {
            // A cursor names a payment of the same list; anything else would silently restart or end the listing.
            guard let cursor = try await repository.payment(startingAfter, merchantId: caller.merchantId, on: database),
                caller.sees(cursor)
            else {
                throw GatewayAPIError(code: .invalidRequest, message: "startingAfter is not a payment of this list")
            }
        }
        var filter = filter
        if let device = caller.deviceId { filter.deviceId = device }  // a reader session sees its device's only
        let records = try await repository.payments(
            merchantId: caller.merchantId, filter: filter, startingAfter: startingAfter, limit: limit + 1,
            on: database)
        return PaymentList(data: records.prefix(limit).map(\.payment), hasMore: records.count > limit)
    }

    /// Captures all or part of an authorised payment (manual capture).
    func capture(_ id: String, amount: Int?, caller: Caller) async throws -> Payment {
        try await change(id, caller: caller, action: "captured") { record in
            guard record.payment.status == .requiresCapture else {
                throw GatewayAPIError(code: .invalidState, message: "only a payment that requires capture is captured")
            }
            let captured = amount ?? record.payment.amount
            guard captured > 0 else { throw GatewayAPIError(code: .invalidRequest, message: "amount must be positive") }
            guard captured <= record.payment.amount else {
                throw GatewayAPIError(code: .amountExceedsAvailable, message: "more than the authorised amount")
            }
            record.payment.capturedAmount = captured
            record.payment.status = .succeeded
            // Captured: no void any more, so the PAN-bearing reversal goes.
            record.reversalMessage = nil
            return "amount \(captured)"
        }
    }

    /// Voids a payment before capture: an authorised one is reversed at the issuer (retried until acknowledged),
    /// one awaiting its PIN just ends.
    func void(_ id: String, caller: Caller) async throws -> Payment {
        let payment = try await change(id, caller: caller, action: "canceled") { record in
            switch record.payment.status {
            case .requiresCapture:
                record.nextReversalAt = clock().addingTimeInterval(reversalLease)
            case .requiresPIN:
                record.forgetCardData()
                record.reversalMessage = nil
            default:
                throw GatewayAPIError(code: .invalidState, message: "only an uncaptured payment is voided")
            }
            record.payment.status = .canceled
            return "void"
        }
        if let record = try await repository.payment(id, merchantId: caller.merchantId, on: database),
            record.reversalMessage != nil
        {
            _ = try? await reverse(record)
        }
        return payment
    }

    /// Refunds all or part of what remains of a captured payment.
    func refund(_ id: String, request: CreateRefundRequest, caller: Caller) async throws -> Refund {
        // A refund of a payment is in the payment's currency, to its card: a currency or card data in the request
        // would be ignored, so it is refused rather than taken.
        guard request.cardData == nil else {
            throw GatewayAPIError(code: .invalidRequest, message: "a refund of a payment takes no cardData")
        }
        let currency = try request.currency.map { (code) throws(GatewayAPIError) in try Self.currency(code) }
        let now = clock()
        let refundId = EntityID.make("re")
        return try await database.transaction { executor in
            guard
                var record = try await repository.payment(
                    id, merchantId: caller.merchantId, locking: true, on: executor),
                caller.sees(record)
            else { throw GatewayAPIError(code: .notFound, message: "no such payment") }
            guard record.payment.status == .succeeded, record.payment.kind == .purchase else {
                throw GatewayAPIError(code: .invalidState, message: "only a captured purchase is refunded")
            }
            if let currency, currency.alphabeticCode != record.payment.currency {
                throw GatewayAPIError(code: .invalidRequest, message: "currency is not the payment's")
            }
            let remaining = record.payment.capturedAmount - record.payment.refundedAmount
            let amount = request.amount ?? remaining
            guard amount > 0 else { throw GatewayAPIError(code: .invalidRequest, message: "amount must be positive") }
            guard amount <= remaining else {
                throw GatewayAPIError(code: .amountExceedsAvailable, message: "more than remains to refund")
            }
            record.payment.refundedAmount += amount
            record.payment.updatedAt = now
            let refund = Refund(
                id: refundId, paymentId: id, amount: amount, currency: record.payment.currency, status: "succeeded",
                reason: request.reason, card: record.payment.card, createdAt: now)
            try await repository.update(record, on: executor)
            try await repository.insert(refund, merchantId: caller.merchantId, on: executor)
            try await AuditLog.record(
                on: executor, at: now, actor: caller.auditActor, entity: "payment", id: id, action: "refunded",
                detail: "\(refundId) amount \(amount)")
            try await Self.announce(refund, merchantId: caller.merchantId, on: executor, now: now)
            return refund
        }
    }

    /// A card-present refund without a payment: the card data of a refund read, opened once, credited offline
    /// (refunds are not authorised online; they settle in clearing).
    func refundCard(_ request: CreateRefundRequest, caller: Caller) async throws -> Refund {
        guard let sealed = request.cardData, let amount = request.amount, let currencyCode = request.currency else {
            throw GatewayAPIError(
                code: .invalidRequest, message: "a refund without a payment needs cardData, amount and currency")
        }
        let currency = try Self.currency(currencyCode)
        try Self.checkAmount(amount)
        let payload = try await open(sealed, caller: caller)
        let card = payload.authorization
        let now = clock()
        let refund = Refund(
            id: EntityID.make("re"), paymentId: nil, amount: amount, currency: currency.alphabeticCode,
            status: "succeeded", reason: request.reason,
            card: PaymentCard(pan: card.pan, entryMode: card.mode == .emv ? "contactlessChip" : "contactlessMagStripe"),
            createdAt: now)
        try await database.transaction { executor in
            try await repository.insert(refund, merchantId: caller.merchantId, on: executor)
            try await AuditLog.record(
                on: executor, at: now, actor: caller.auditActor, entity: "refund", id: refund.id, action: "created",
                detail: "card-present, amount \(amount)")
            try await Self.announce(refund, merchantId: caller.merchantId, on: executor, now: now)
        }
        return refund
    }

    /// The refunds of a payment.
    func refunds(ofPayment id: String, caller: Caller) async throws -> [Refund] {
        _ = try await payment(id, caller: caller)
        return try await repository.refunds(ofPayment: id, merchantId: caller.merchantId, on: database)
    }

    /// Runs `body` on the locked payment and stores the result with an audit row.
    private func change(
        _ id: String, caller: Caller, action: String, _ body: @escaping @Sendable (inout PaymentRecord) throws -> String
    ) async throws -> Payment {
        let now = clock()
        return try await database.transaction { executor in
            guard
                var record = try await repository.payment(
                    id, merchantId: caller.merchantId, locking: true, on: executor),
                caller.sees(record)
            else { throw GatewayAPIError(code: .notFound, message: "no such payment") }
            let detail = try body(&record)
            record.payment.updatedAt = now
            try await repository.update(record, on: executor)
            try await AuditLog.record(
                on: executor, at: now, actor: caller.auditActor, entity: "payment", id: id, action: action,
                detail: detail)
            try await Self.announce(record.payment, on: executor, now: now)
            return record.payment
        }
    }
}
