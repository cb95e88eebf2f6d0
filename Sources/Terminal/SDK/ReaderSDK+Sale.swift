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
        let card = try await readCard(.sale, parameters)
        let request = try CreatePaymentRequest(
            cardData: card.read.sealedCardData(), amount: card.amount.minorUnits,
            currency: card.amount.currency.alphabeticCode)
        return try await authorize(card, request, externalID: parameters.externalID)
    }

    /// Refunds to the card presented: a refund read, then the merchant server's card-present refund.
    ///
    /// Events: `paymentScreen` (purpose refund), then the reader's read events.
    /// - Throws: as ``makeSale(_:)``.
    public func refund(_ parameters: PaymentParameters, reason: String? = nil) async throws -> SaleResult {
        try begin("refund")
        defer { end() }
        let card = try await readCard(.refund, parameters)
        let refund = try await configuration.backend.refund(
            CreateRefundRequest(
                amount: card.amount.minorUnits, reason: reason, cardData: try card.read.sealedCardData(),
                currency: card.amount.currency.alphabeticCode))
        let receipt = Self.receipt(
            card, card: refund.card, date: refund.createdAt, approved: true, issuer: nil,
            verification: CardSummary(card.read).cardholderVerification, transactionID: refund.id)
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
        let card = try await readCard(.verification(reason), PaymentParameters(amount: 0, currency: currency))
        let request = try CreatePaymentRequest(
            cardData: card.read.sealedCardData(), amount: 0, currency: card.amount.currency.alphabeticCode,
            kind: .verification, verificationReason: VerificationReason(rawValue: reason.rawValue))
        return try await authorize(card, request, externalID: nil)
    }

    // MARK: - Reading

    /// What a read is for.
    private enum ReadPurpose {
        case sale, refund
        case verification(PaymentCardVerificationRequest.Reason)

        var screen: PaymentScreen.Purpose {
            switch self {
            case .sale: .sale
            case .refund: .refund
            case .verification: .verification
            }
        }
    }

    /// A card read for a sale, refund or verification, with what the receipt needs.
    private struct CardRead {
        var read: PaymentCardReadResult
        var screen: PaymentScreen
        var amount: Amount
        var session: PaymentCardReaderSession
        /// The card's CVM asked for online PIN and the cardholder entered it during the read.
        var pinEnteredDuringRead: Bool
    }

    /// Shows the payment screen and reads the card; a session that expired (after 12 hours) is prepared again
    /// first.
    private func readCard(_ purpose: ReadPurpose, _ parameters: PaymentParameters) async throws -> CardRead {
        let amount = try Self.amount(parameters, allowsZero: purpose.screen == .verification)
        let currency = amount.currency.alphabeticCode
        var (connection, session) = try await liveSession()
        let screen = PaymentScreen(
            merchantDisplayName: connection.displayName,
            purpose: purpose.screen, amount: parameters.amount,
            currency: currency, paymentDescription: parameters.paymentDescription)
        emit(.paymentScreen(screen))
        for attempt in 1...2 {
            readActivity.reset()
            do {
                let read: PaymentCardReadResult
                switch purpose {
                case .sale, .refund:
                    read = try await session.readPaymentCard(
                        PaymentCardTransactionRequest(
                            amount: parameters.amount, currencyCode: currency,
                            for: purpose.screen == .refund ? .refund : .purchase))
                case .verification(let reason):
                    read = try await session.readPaymentCard(
                        PaymentCardVerificationRequest(currencyCode: currency, for: reason))
                }
                return CardRead(
                    read: read, screen: screen, amount: amount, session: session,
                    pinEnteredDuringRead: readActivity.pinEntered)
            } catch  where attempt == 1 && Self.sessionIsOver(error) {
                // Refused before the field turned on (no reader events): prepare again, quietly, and read.
                endSession()
                (connection, session) = try await liveSession()
            }
        }
        throw TerminalError(code: .notConnected, message: "the reader session could not be renewed")
    }

    /// Whether a read was refused because the session is over: it expired (12 hours), or the app went to the
    /// background while the connect that made it was still running.
    private static func sessionIsOver(_ error: any Error) -> Bool {
        switch error {
        case PaymentCardReaderSession.ReadError.readerSessionExpired, PaymentCardReaderError.notReady: true
        default: false
        }
    }

    // MARK: - Authorization

    /// The read's authorization at the merchant's server, with the PIN when the issuer asks; the result.
    private func authorize(
        _ cardRead: CardRead, _ request: CreatePaymentRequest, externalID: String?
    ) async throws -> SaleResult {
        let read = cardRead.read
        let card = CardSummary(read)
        guard read.outcome == .success else {
            // The card declined offline: nothing goes to the PSP.
            let receipt = Self.receipt(
                cardRead, card: nil, date: configuration.clock(), approved: false, issuer: nil,
                verification: card.cardholderVerification, transactionID: nil)
            return SaleResult(
                outcome: .declined(DeclineReason(source: .card, code: "declinedByCard")), receipt: receipt,
                payment: nil, externalID: externalID)
        }
        var payment = try await configuration.backend.authorizePayment(request)
        var verification = cardRead.pinEnteredDuringRead ? .onlinePIN : card.cardholderVerification
        if payment.status == .requiresPIN {
            guard let answered = try await collectPIN(for: payment, read: read, session: cardRead.session) else {
                let receipt = Self.receipt(
                    cardRead, card: payment.card, date: payment.updatedAt, approved: false,
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
                    source: .issuer, code: payment.failureCode ?? "declined", responseCode: payment.issuer?.responseCode
                ))
        case .processing, .requiresPIN, .canceled, .failed:
            throw TerminalError(
                code: .paymentFailed,
                message:
                    "the payment \(payment.id) is \(payment.status.rawValue) (\(payment.failureCode ?? "no reason"))")
        }
        let receipt = Self.receipt(
            cardRead, card: payment.card, date: payment.updatedAt, approved: outcome == .approved,
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
                return try await configuration.backend.submitPIN(
                    try capture.pinSubmission(pinToken: request.pinToken), paymentID: payment.id)
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
        _ cardRead: CardRead, card: PaymentCard?, date: Date, approved: Bool, issuer: IssuerOutcome?,
        verification: CardholderVerificationMethod, transactionID: String?
    ) -> Receipt {
        let screen = cardRead.screen
        let read = cardRead.read
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
