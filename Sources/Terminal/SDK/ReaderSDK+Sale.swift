import EMV
import Foundation
import GatewayAPI
public import TapToPay

extension ReaderSDK {
    /// Takes a payment: the payment screen, the card read, the merchant server's authorization, and the online PIN
    /// when the issuer asks for it (a wrong PIN may be entered again, up to ``Configuration/pinAttempts`` times
    /// within the 55 s PIN window).
    ///
    /// Events: `paymentScreen`, then the reader's (`readyForTap`, `cardDetected`, `removeCard`, `readCompleted`,
    /// `userInterfaceDismissed`; for a PIN `pinEntryRequested`, `pinEntryCompleted`, `userInterfaceDismissed`).
    /// - Returns: approved, or declined with the reason (the issuer's, the card's offline decline, or a bypassed
    ///   PIN), with the receipt.
    /// - Throws: ``TerminalError`` (`busy`, `notConnected`, `invalidAmount`, `paymentFailed`), the reader's
    ///   ``TapToPay/PaymentCardReaderSession/ReadError`` (`readCancelled`, `readFromBackgroundError`,
    ///   `pinEntryTimeout`, `pinNotAllowed`, `cardReadFailed`, …) or the merchant server's error (over the gateway:
    ///   ``GatewayAPI/GatewayAPIError`` such as `cardDataExpired`).
    public func makeSale(_ parameters: PaymentParameters) async throws -> SaleResult {
        try begin("sale")
        defer { end() }
        let amount = try Self.amount(parameters, allowsZero: false)
        let (connection, session) = try await liveSession()
        let screen = PaymentScreen(
            merchantDisplayName: connection.displayName, purpose: .sale, amount: parameters.amount,
            currency: amount.currency.alphabeticCode, paymentDescription: parameters.paymentDescription)
        emit(.paymentScreen(screen))
        let read = try await session.readPaymentCard(
            PaymentCardTransactionRequest(amount: parameters.amount, currencyCode: amount.currency.alphabeticCode))
        let request = try CreatePaymentRequest(
            cardData: read.sealedCardData(), amount: amount.minorUnits, currency: amount.currency.alphabeticCode)
        return try await authorize(read, request, screen: screen, session: session, externalID: parameters.externalID)
    }

    /// Refunds to the card presented: a refund read, then the merchant server's card-present refund.
    ///
    /// Events: `paymentScreen` (purpose refund), then the reader's read events.
    /// - Throws: as ``makeSale(_:)``.
    public func refund(_ parameters: PaymentParameters, reason: String? = nil) async throws -> SaleResult {
        try begin("refund")
        defer { end() }
        let amount = try Self.amount(parameters, allowsZero: false)
        let (connection, session) = try await liveSession()
        let screen = PaymentScreen(
            merchantDisplayName: connection.displayName, purpose: .refund, amount: parameters.amount,
            currency: amount.currency.alphabeticCode, paymentDescription: parameters.paymentDescription)
        emit(.paymentScreen(screen))
        let read = try await session.readPaymentCard(
            PaymentCardTransactionRequest(
                amount: parameters.amount, currencyCode: amount.currency.alphabeticCode, for: .refund))
        let refund = try await configuration.backend.refund(
            CreateRefundRequest(
                amount: amount.minorUnits, reason: reason, cardData: try read.sealedCardData(),
                currency: amount.currency.alphabeticCode))
        let receipt = Self.receipt(
            screen, read: read, card: refund.card, date: refund.createdAt, approved: true, issuer: nil,
            verification: CardSummary(read).cardholderVerification, transactionID: refund.id)
        return SaleResult(
            outcome: .approved, receipt: receipt, payment: nil, refund: refund, externalID: parameters.externalID)
    }

    /// Verifies the card presented without an amount (to look it up, open a tab, save it): a verification read
    /// the merchant's server authorizes for zero.
    ///
    /// Events: `paymentScreen` (purpose verification, amount 0), then the reader's read events.
    /// - Throws: as ``makeSale(_:)``.
    public func verifyCard(
        currency: String, reason: PaymentCardVerificationRequest.Reason = .saveCard
    ) async throws -> SaleResult {
        try begin("verification")
        defer { end() }
        let amount = try Self.amount(PaymentParameters(amount: 0, currency: currency), allowsZero: true)
        let (connection, session) = try await liveSession()
        let screen = PaymentScreen(
            merchantDisplayName: connection.displayName, purpose: .verification, amount: 0,
            currency: amount.currency.alphabeticCode)
        emit(.paymentScreen(screen))
        let read = try await session.readPaymentCard(
            PaymentCardVerificationRequest(currencyCode: amount.currency.alphabeticCode, for: reason))
        let request = try CreatePaymentRequest(
            cardData: read.sealedCardData(), amount: 0, currency: amount.currency.alphabeticCode, kind: .verification,
            verificationReason: VerificationReason(rawValue: reason.rawValue))
        return try await authorize(read, request, screen: screen, session: session, externalID: nil)
    }

    // MARK: - Authorization

    /// The read's authorization at the merchant's server, with the PIN when the issuer asks; the result.
    private func authorize(
        _ read: PaymentCardReadResult, _ request: CreatePaymentRequest, screen: PaymentScreen,
        session: PaymentCardReaderSession, externalID: String?
    ) async throws -> SaleResult {
        let card = CardSummary(read)
        guard read.outcome == .success else {
            // The card declined offline: nothing goes to the PSP.
            let receipt = Self.receipt(
                screen, read: read, card: nil, date: configuration.clock(), approved: false, issuer: nil,
                verification: card.cardholderVerification, transactionID: nil)
            return SaleResult(
                outcome: .declined(DeclineReason(source: .card, code: "declinedByCard")), receipt: receipt,
                payment: nil, externalID: externalID)
        }
        var payment = try await configuration.backend.authorizePayment(request)
        var verification = card.cardholderVerification
        if payment.status == .requiresPIN {
            guard let answered = try await collectPIN(for: payment, read: read, session: session) else {
                let receipt = Self.receipt(
                    screen, read: read, card: payment.card, date: payment.updatedAt, approved: false,
                    issuer: payment.issuer, verification: verification, transactionID: payment.id)
                return SaleResult(
                    outcome: .declined(DeclineReason(source: .cardholder, code: "pinBypassed")), receipt: receipt,
                    payment: payment, externalID: externalID)
            }
            payment = answered
            verification = .onlinePIN
        }
        let outcome: SaleResult.Outcome
        switch payment.status {
        case .succeeded, .requiresCapture:
            outcome = .approved
        case .declined:
            outcome = .declined(
                DeclineReason(
                    source: .issuer, code: payment.failureCode ?? "declined", responseCode: payment.issuer?.responseCode))
        case .processing, .requiresPIN, .canceled, .failed:
            throw TerminalError(
                code: .paymentFailed,
                message: "the payment \(payment.id) is \(payment.status.rawValue) (\(payment.failureCode ?? "no reason"))")
        }
        let receipt = Self.receipt(
            screen, read: read, card: payment.card, date: payment.updatedAt, approved: outcome == .approved,
            issuer: payment.issuer, verification: verification, transactionID: payment.id)
        return SaleResult(outcome: outcome, receipt: receipt, payment: payment, externalID: externalID)
    }

    /// Captures the PIN for `payment` and sends it, again after a wrong PIN; nil when the cardholder bypassed it.
    private func collectPIN(
        for payment: Payment, read: PaymentCardReadResult, session: PaymentCardReaderSession
    ) async throws -> Payment? {
        var attempt = 0
        while true {
            attempt += 1
            guard let request = payment.pinRequest else {
                throw TerminalError(code: .paymentFailed, message: "the PSP asked for a PIN without a PIN token")
            }
            let capture = try await session.capturePIN(
                using: PaymentCardReaderSession.PINToken(rawValue: request.pinToken), cardReaderTransactionID: read.id)
            if capture.pinBypassed { return nil }
            do {
                return try await configuration.backend.submitPIN(try capture.pinSubmission(), paymentID: payment.id)
            } catch GatewayAPIError.incorrectPIN where attempt < configuration.pinAttempts {
                continue
            }
        }
    }

    // MARK: - Helpers

    /// The parameters' amount in minor units of their currency.
    private static func amount(_ parameters: PaymentParameters, allowsZero: Bool) throws(TerminalError) -> Amount {
        guard parameters.currency.count == 3, let currency = Currency(alphabeticCode: parameters.currency.uppercased())
        else {
            throw TerminalError(code: .invalidAmount, message: "the currency is not an ISO 4217 alphabetic code")
        }
        guard let amount = try? Amount(parameters.amount, currency: currency),
            allowsZero ? amount.minorUnits >= 0 : amount.minorUnits > 0, amount.minorUnits <= Amount.maximumN12
        else {
            throw TerminalError(
                code: .invalidAmount,
                message: "the amount must be positive with at most \(currency.exponent) fraction digits")
        }
        return amount
    }

    private static func receipt(
        _ screen: PaymentScreen, read: PaymentCardReadResult, card: PaymentCard?, date: Date, approved: Bool,
        issuer: IssuerOutcome?, verification: CardholderVerificationMethod, transactionID: String?
    ) -> Receipt {
        let summary = CardSummary(read)
        return Receipt(
            merchantDisplayName: screen.merchantDisplayName, purpose: screen.purpose, amount: screen.amount,
            currency: screen.currency, date: date, outcome: approved ? "APPROVED" : "DECLINED",
            maskedPAN: card.map { "\($0.bin)…\($0.last4)" }, scheme: card?.scheme,
            applicationIdentifier: summary.applicationIdentifier, applicationLabel: summary.applicationLabel,
            authorizationCode: issuer?.approvalCode, responseCode: issuer?.responseCode,
            cardholderVerification: verification, transactionID: transactionID, readID: read.id,
            paymentDescription: screen.paymentDescription)
    }
}
