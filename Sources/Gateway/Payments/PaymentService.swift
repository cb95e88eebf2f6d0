import Crypto
import EMV
import Foundation
import GatewayAPI
import ISO8583
import Issuer
import Logging
import _SQLStorage

/// The payments core: authorises sealed reads through the issuer, and captures, voids, refunds and lists.
///
/// Every step that talks to the issuer is bracketed by two transactions: the first stores the payment as
/// ``PaymentStatus/processing`` with its reversal message (encrypted) before anything is sent, the second stores the
/// answer. A crash in between leaves a `processing` payment that ``recoverAbandoned(before:)`` reverses, and an
/// issuer that does not answer in time gets the reversal right away, retried until acknowledged.
struct PaymentService: Sendable {
    let database: any SQLDatabase
    let opener: CardDataOpener
    let issuer: any IssuerLink
    /// The data key seals what is kept for a while: the reversal message (it holds the PAN) and, while a PIN is
    /// awaited, the read's card data — each bound to its payment's id, so it cannot be moved to another row.
    let keys: GatewayKeys
    /// The AES key of the format 4 PIN blocks the issuer receives (the acquirer–issuer PIN key).
    let issuerPINKey: [UInt8]
    let issuerTimeout: Duration
    let clock: @Sendable () -> Date
    let logger: Logger
    let repository = PaymentRepository()

    /// How long a PIN is accepted after the read.
    static let pinWindow: TimeInterval = 55

    // MARK: Authorisation

    /// Opens the read's card data and authorises it; `answer` stores the request's idempotent answer (the payment)
    /// in the transaction that stores the outcome.
    func authorize(
        _ request: CreatePaymentRequest, caller: Caller, answer: IdempotentResponder.Answer? = nil
    ) async throws -> Payment {
        let kind = request.kind ?? .purchase
        let currency = try Self.currency(request.currency)
        switch kind {
        case .purchase:
            try Self.checkAmount(request.amount)
        case .verification:
            guard request.amount == 0 else {
                throw GatewayAPIError(code: .invalidRequest, message: "a verification's amount is 0")
            }
        }
        // Checked here, recorded as opened in the transaction that stores the payment: one commit fewer, and a read
        // is spent exactly when its payment exists.
        let payload = try check(request.cardData, caller: caller)
        let card = payload.authorization
        try Self.checkSendable(card)
        try Self.checkCryptogramCovers(card, amount: request.amount, currency: currency)
        let now = clock()
        var record = PaymentRecord(
            newPaymentOf: caller.merchantId, deviceId: payload.deviceId, readId: payload.readId, kind: kind,
            captureMethod: kind == .verification ? .automatic : request.captureMethod ?? .automatic,
            amount: request.amount, currency: currency,
            card: PaymentCard(pan: card.pan, entryMode: card.mode == .emv ? "contactlessChip" : "contactlessMagStripe"),
            at: now)
        record.pinDeadline = payload.createdAt.addingTimeInterval(Self.pinWindow)
        if kind == .verification { record.payment.verificationReason = request.verificationReason ?? .other }
        let read = OpenedRead(
            id: payload.readId, expiresAt: payload.createdAt.addingTimeInterval(CardDataOpener.maximumAge))
        // A PIN the reader captured with the read (the card's CVM asked for online PIN) goes in the same 0100.
        var pinBlock: [UInt8]?
        if let block = payload.pinBlock {
            guard block.count == 16 else {
                throw GatewayAPIError(code: .invalidRequest, message: "the read's PIN block is not ISO 9564 format 4")
            }
            pinBlock = try await translate(
                block, pan: card.pan, merchantId: caller.merchantId, deviceId: payload.deviceId)
        }
        let message = try await prepareSend(
            &record, card: card, currency: currency, pinBlock: pinBlock, opening: read, claim: answer?.claim)
        return try await exchange(message, record: record, card: card, answer: answer)
    }

    /// A read to record as opened with the payment made from it.
    struct OpenedRead: Sendable {
        var id: UUID
        var expiresAt: Date
    }

    /// The payload of `sealed` for the caller, checked but not yet recorded as opened (see ``open(_:caller:)``).
    func check(_ sealed: SealedCardData, caller: Caller) throws -> CardDataPayload {
        try opener.check(sealed, merchantId: caller.merchantId, deviceId: try Self.device(of: sealed, for: caller))
    }

    /// The device a caller pays from: a reader session's own, or for an API key (the merchant's own server) the
    /// device the data names. A reader token does not pay.
    private static func device(of sealed: SealedCardData, for caller: Caller) throws(GatewayAPIError) -> String {
        guard caller.credential != .readerToken else {
            throw GatewayAPIError(code: .forbidden, message: "payments take a reader session or an API key")
        }
        return caller.deviceId ?? sealed.deviceId
    }

    /// The card data of `sealed`, opened for the caller: a reader session's device, or for an API key (the
    /// merchant's own server) the device the data names.
    func open(_ sealed: SealedCardData, caller: Caller) async throws -> CardDataPayload {
        try await opener.open(sealed, merchantId: caller.merchantId, deviceId: try Self.device(of: sealed, for: caller))
    }

    /// Allocates the next message reference, builds the 0100 and its 0400, and stores the payment as
    /// ``PaymentStatus/processing`` with the 0400 encrypted — all before anything is sent.
    /// `opening` is the read of a new payment (inserted, and the read recorded as opened in the same transaction);
    /// nil resubmits an existing payment, unless `token` makes it a new token payment (its 0100 then carries the
    /// cryptogram in field 48). A `claim` not yet held is claimed first, in the same transaction.
    func prepareSend(
        _ record: inout PaymentRecord, card: CardAuthorizationData, currency: Currency, pinBlock: [UInt8]?,
        opening read: OpenedRead?, token: TokenPaymentData? = nil, claim: IdempotentResponder.Claim? = nil
    ) async throws -> ISO8583Message {
        let now = clock()
        let snapshot = record
        // A new payment is named in its key's row: after a crash its outcome is the key's answer.
        let madePaymentId = read != nil || token != nil ? record.payment.id : nil
        let body: @Sendable (any SQLExecutor) async throws -> (PaymentRecord, ISO8583Message) = { executor in
            try await claim?.acquire(on: executor, paymentId: madePaymentId)
            var record = snapshot
            let reference = try await repository.nextReference(
                deviceId: record.payment.deviceId ?? "", merchantId: record.payment.merchantId, date: now,
                on: executor)
            let authorization = AuthorizationRequest(
                card: card, amount: record.payment.amount, currency: currency,
                type: record.payment.kind == .verification ? .accountVerification : .purchase,
                systemTraceAuditNumber: reference.stan, retrievalReferenceNumber: reference.rrn,
                terminalID: reference.terminalID, merchantID: reference.cardAcceptorID, transmissionDate: now,
                pinBlock: pinBlock)
            let message: ISO8583Message
            let reversal: [UInt8]
            do {
                message = try token.map { try authorization.tokenMessage($0) } ?? authorization.message()
                reversal = try AuthorizationRequest.reversal(of: message).encoded(using: .contactless)
            } catch let error as ISO8583Error {
                throw IssuerLinkError(code: .invalidRequest, message: error.message)
            }
            record.stan = message[.systemTraceAuditNumber]?.text ?? ""
            record.rrn = reference.rrn
            record.terminalID = reference.terminalID
            record.reversalMessage = keys.seal(reversal, authenticating: Array(record.payment.id.utf8))
            record.payment.status = .processing
            record.payment.updatedAt = now
            if let read {
                guard try await SQLReplayStore.recordOpened(readId: read.id, expiresAt: read.expiresAt, on: executor)
                else { throw GatewayAPIError(code: .cardDataReplayed, message: "the card data was already opened") }
            }
            // A read or a token makes a new payment; neither is a resubmission (with a PIN) of a stored one.
            let isNew = read != nil || token != nil
            if isNew {
                try await repository.insert(record, on: executor)
            } else {
                try await repository.update(record, on: executor)
            }
            try await AuditLog.record(
                on: executor, at: now, actor: record.payment.merchantId, entity: "payment", id: record.payment.id,
                action: isNew ? "created" : "resubmitted",
                detail: "stan \(reference.stan); \(Self.summary(of: card, withPIN: pinBlock != nil))")
            return (record, message)
        }
        // On disk before the issuer sees the 0100, unless the issuer records into this database (see
        // IssuerLink.recordsInGatewayDatabase): then the answer's durable commit covers it.
        let (stored, message) =
            issuer.recordsInGatewayDatabase
            ? try await database.transactionDurableLater(body) : try await database.transaction(body)
        claim?.didCommit()
        record = stored
        return message
    }

    /// Sends the 0100 and stores the issuer's answer (or the lack of one); `answer`, if any, is written with it.
    func exchange(
        _ message: ISO8583Message, record: PaymentRecord, card: CardAuthorizationData,
        answer: IdempotentResponder.Answer? = nil
    ) async throws -> Payment {
        let response: ISO8583Message
        do {
            response = try await issuer.send(message, timeout: issuerTimeout)
        } catch {
            logger.warning(
                "issuer gave no answer", metadata: ["payment": "\(record.payment.id)", "error": "\(error.code)"])
            let unanswered = Self.issuerUnavailable(paymentId: record.payment.id)
            try await failAndReverse(record, answer: answer.map { ($0.claim, unanswered) })
            throw unanswered
        }
        return try await store(response, for: record, card: card, answer: answer)
    }

    /// Stores the 0110's outcome, and `answer` (the payment as the API shows it) in the same transaction.
    private func store(
        _ response: ISO8583Message, for record: PaymentRecord, card: CardAuthorizationData,
        answer reply: IdempotentResponder.Answer?
    ) async throws -> Payment {
        // An answer that does not read is treated as the issuer's system malfunction: declined, nothing to reverse.
        let answer = (try? AuthorizationResponse(response)) ?? AuthorizationResponse(responseCode: .systemMalfunction)
        let code = answer.responseCode
        let now = clock()
        var record = record
        var payment = record.payment
        payment.issuer = IssuerOutcome(
            responseCode: code.rawValue, approvalCode: answer.approvalCode,
            authenticationData: answer.issuerAuthenticationData?.hexString)
        payment.updatedAt = now
        var pinToken: String?
        switch code {
        case .approved:
            record.forgetCardData()
            if payment.captureMethod == .automatic {
                payment.status = .succeeded
                payment.capturedAmount = payment.amount
                // Captured: nothing left to void, so the PAN-bearing reversal goes.
                record.reversalMessage = nil
            } else {
                payment.status = .requiresCapture
            }
        case .pinRequired where now < (record.pinDeadline ?? now):
            payment.status = .requiresPIN
            let token = EntityID.make("pin")
            pinToken = token
            record.pinTokenHash = Self.hash(token)
            record.pendingCardData = keys.seal(
                Array(try JSONEncoder().encode(card)), authenticating: Array(payment.id.utf8))
            record.reversalMessage = nil
        default:
            payment.status = .declined
            payment.failureCode = Self.failureCode(code)
            record.reversalMessage = nil
            record.forgetCardData()
        }
        record.payment = payment
        if let pinToken, let deadline = record.pinDeadline {
            payment.pinRequest = PINRequest(pinToken: pinToken, expiresAt: deadline)
        }
        let body = try reply.map { _ in Array(try JSONResponse(payment).encoded()) }
        var detail = "response \(code.rawValue)"
        if let approval = answer.approvalCode { detail += ", approval code \(approval)" }
        // An issuer returns an ARPC only for an ARQC it verified.
        if answer.issuerAuthenticationData != nil { detail += "; ARQC verified by the issuer (ARPC returned)" }
        try await save(record, at: now, actor: "issuer", action: payment.status.rawValue, detail: detail) { executor in
            if let reply, let body { try await reply.write(body, on: executor) }
        }
        if let reply, let body { reply.didStore(body) }
        return payment
    }

    // MARK: Support

    /// What the timeline tells of a read: the cryptogram the card sent and the cardholder verification (an online PIN
    /// when a PIN block goes with it, else field 55's CVM Results 9F34, or a Visa card's CDCVM bit in its CTQ 9F6C),
    /// never the data itself.
    static func summary(of card: CardAuthorizationData, withPIN: Bool) -> String {
        guard card.mode == .emv else { return "mag-stripe mode (CVC3)" }
        let cryptogram =
            card.iccValue(.cryptogramInformationData).flatMap(\.first).map { cid in
                switch cid & 0xC0 {
                case 0x80: "ARQC"
                case 0x40: "TC"
                default: "AAC"
                }
            } ?? "no cryptogram type"
        let cvm: String
        if withPIN {
            cvm = "online PIN"
        } else if let results = card.iccValue(.cvmResults).flatMap({ try? CVMResults(bytes: $0) }) {
            cvm = "\(results.method.name), \(results.result.description.lowercased())"
        } else if let ctq = card.iccValue(.cardTransactionQualifiers), ctq.count == 2, ctq[1] & 0x80 != 0 {
            cvm = "consumer device CVM"
        } else {
            cvm = "none recorded"
        }
        return "\(cryptogram); CVM: \(cvm)"
    }

    /// Stores `record` and its audit row in one transaction, with whatever `also` writes.
    func save(
        _ record: PaymentRecord, at date: Date, actor: String, action: String, detail: String,
        also: @Sendable (any SQLExecutor) async throws -> Void = { _ in }
    ) async throws {
        try await database.transaction { executor in
            try await repository.update(record, on: executor)
            try await AuditLog.record(
                on: executor, at: date, actor: actor, entity: "payment", id: record.payment.id, action: action,
                detail: detail)
            try await Self.announce(record.payment, on: executor, now: date)
            try await also(executor)
        }
    }

    /// Tells the merchant's webhook endpoints of `payment`'s new state, in the transaction that stored it.
    static func announce(_ payment: Payment, on executor: any SQLExecutor, now: Date) async throws {
        guard let type = WebhookEvent.EventType(status: payment.status) else { return }
        try await WebhookOutbox.enqueue(
            WebhookEvent(id: EntityID.make("evt"), type: type, createdAt: now, data: .init(payment: payment)),
            merchantId: payment.merchantId, on: executor, now: now)
    }

    /// Tells the merchant's webhook endpoints of a new refund.
    static func announce(_ refund: Refund, merchantId: String, on executor: any SQLExecutor, now: Date) async throws {
        try await WebhookOutbox.enqueue(
            WebhookEvent(id: EntityID.make("evt"), type: .refundCreated, createdAt: now, data: .init(refund: refund)),
            merchantId: merchantId, on: executor, now: now)
    }

    /// The answer to a payment whose 0100 got no answer: it is failed, and its authorization reversed.
    static func issuerUnavailable(paymentId: String) -> GatewayAPIError {
        GatewayAPIError(
            code: .issuerUnavailable, message: "the issuer did not answer in time; payment \(paymentId) was reversed")
    }

    /// Checks that a purchase or refund amount is 1 to 12 digits of minor units (ISO 8583 field 4).
    static func checkAmount(_ amount: Int) throws(GatewayAPIError) {
        guard (1...999_999_999_999).contains(amount) else {
            throw GatewayAPIError(code: .invalidRequest, message: "amount must be between 1 and 999999999999")
        }
    }

    /// The currency of an ISO 4217 alphabetic code as the API spells it: three upper-case letters (`EUR`, not `eur`).
    static func currency(_ code: String) throws(GatewayAPIError) -> Currency {
        guard code.utf8.count == 3, code.utf8.allSatisfy({ (0x41...0x5A).contains($0) }),
            let currency = Currency(alphabeticCode: code)
        else {
            throw GatewayAPIError(
                code: .invalidRequest, message: "currency is not an ISO 4217 code of three upper-case letters")
        }
        return currency
    }

    /// Checks that the card data can become a 0100 (``ISO8583/AuthorizationRequest/checkCardFields(of:using:)``): refused as
    /// ``GatewayAPIError/Code/cardDataInvalid`` naming the field before anything is stored, so the read is not spent.
    static func checkSendable(_ card: CardAuthorizationData) throws(GatewayAPIError) {
        do {
            try AuthorizationRequest.checkCardFields(of: card)
        } catch {
            throw GatewayAPIError(
                code: .cardDataInvalid,
                message: "the card data does not fit ISO 8583 field \(error.field.map(String.init) ?? "?"): "
                    + "\(error.message)")
        }
    }

    /// Checks that the cryptogram covers the asked amount and currency (9F02 and 5F2A of the ICC data), so a
    /// mismatch is the caller's error here rather than a cryptogram failure at the issuer.
    static func checkCryptogramCovers(
        _ card: CardAuthorizationData, amount: Int, currency: Currency
    ) throws(GatewayAPIError) {
        guard card.mode == .emv else { return }
        guard let nodes = try? TLV.parse(card.iccData),
            let amountNode = nodes.first(.amountAuthorised), let currencyNode = nodes.first(.transactionCurrencyCode)
        else {
            throw GatewayAPIError(code: .cardDataInvalid, message: "the card data has no amount or currency")
        }
        guard Int(Array(amountNode.value).hexString) == amount,
            Int(Array(currencyNode.value).hexString) == currency.numericCode
        else {
            throw GatewayAPIError(
                code: .amountMismatch, message: "the amount or currency differs from the one the card was read for")
        }
    }

    static func failureCode(_ code: ResponseCode) -> String {
        switch code {
        case .insufficientFunds: "insufficientFunds"
        case .lostCard: "lostCard"
        case .stolenCard: "stolenCard"
        case .expiredCard: "expiredCard"
        case .doNotHonour: "doNotHonour"
        case .incorrectPIN: "incorrectPIN"
        case .pinTriesExceeded: "pinTryExceeded"
        case .pinRequired: "pinNotAllowed"
        case .exceedsAmountLimit: "exceedsAmountLimit"
        case .cryptogramReplayed: "cryptogramReplayed"
        case .cryptogramFailure: "cryptogramFailure"
        default: "declined"
        }
    }

    static func hash(_ token: String) -> [UInt8] { Array(SHA256.hash(data: Data(token.utf8))) }
}

extension PaymentService {
    /// The ISO 8583 reference of one message: fields 11, 37, 41 and 42.
    struct MessageReference: Sendable {
        var stan: Int
        var rrn: String
        var terminalID: String
        var cardAcceptorID: String
    }
}
