package import GatewayAPI
import ValueAddedServices

/// A prepared reader session (ProximityReader's `PaymentCardReaderSession`): reads cards for purchases, refunds
/// and verifications, and captures a PIN the issuer asks for. One read or PIN capture at a time.
public final class PaymentCardReaderSession: Sendable {
    private let core: ReaderCore
    private let sessionID: Int

    init(core: ReaderCore, sessionID: Int) {
        self.core = core
        self.sessionID = sessionID
    }

    /// Reads a card for a purchase or refund of the request's amount and returns its data sealed to the PSP.
    ///
    /// Events: ``PaymentCardReader/Event/readyForTap``, ``PaymentCardReader/Event/cardDetected``, then on success
    /// ``PaymentCardReader/Event/removeCard``, ``PaymentCardReader/Event/readCompleted`` and
    /// ``PaymentCardReader/Event/userInterfaceDismissed``; a tap that fails midway adds
    /// ``PaymentCardReader/Event/readRetry`` and waits for the card again.
    /// - Throws: ``ReadError`` (`invalidAmount`, `invalidCurrencyCode`, `invalidPreferredAID`, `readerSessionBusy`,
    ///   `readCancelled`, `readFromBackgroundError`, `readerSessionExpired`, `noReaderSession`, `cardReadFailed`,
    ///   `cardNotSupported`, `paymentCardDeclined`) or ``PaymentCardReaderError`` `notReady`.
    public func readPaymentCard(_ request: PaymentCardTransactionRequest) async throws -> PaymentCardReadResult {
        let plan = try ReadPlan(request)
        return try await core.read(plan, session: sessionID)
    }

    /// Reads a card without an amount, to verify it; the PSP authorizes zero.
    /// - Throws: as ``readPaymentCard(_:)-(PaymentCardTransactionRequest)``.
    public func readPaymentCard(_ request: PaymentCardVerificationRequest) async throws -> PaymentCardReadResult {
        let plan = try ReadPlan(request)
        return try await core.read(plan, session: sessionID)
    }

    /// Reads loyalty passes only (ProximityReader's `readVAS(_:)`): one tap in VAS-only mode, so the wallet gives one
    /// pass; nothing is paid.
    ///
    /// Events: as ``readPaymentCard(_:)-(PaymentCardTransactionRequest)``.
    /// - Throws: ``ReadError`` `invalidVASMerchants`, `invalidVASRequestParameters`, `vasReadFail` (the card has no
    ///   VAS application, or the tap kept failing), and the session errors of a payment read.
    public func readVAS(_ request: VASRequest) async throws -> VASReadResult {
        let vas = ReaderCore.VASPlan(request: try request.readerRequest(mode: .vasOnly), stopOnResult: true)
        guard let passes = try await core.read(nil, vas: vas, session: sessionID).vas else {
            throw ReadError.vasReadFail  // the core ends a VAS-only tap with passes or throws
        }
        return passes
    }

    /// Reads loyalty passes and the payment card in one tap (ProximityReader's
    /// `readPaymentCard(_:vasRequest:stopOnVASResult:)`).
    ///
    /// The reader first asks the wallet for the request's merchants' passes, then runs the payment in the same tap.
    /// With `stopOnVASResult`, a pass that answers ends the tap: the payment result is nil (the wallet's "VAS or
    /// payment" mode); otherwise both come back ("VAS and payment"). The VAS result is nil when the card in the field
    /// has no VAS application (a plain card pays as usual).
    /// - Throws: as ``readPaymentCard(_:)-(PaymentCardTransactionRequest)``, and `invalidVASMerchants`,
    ///   `invalidVASRequestParameters`.
    public func readPaymentCard(
        _ request: PaymentCardTransactionRequest, vasRequest: VASRequest, stopOnVASResult: Bool
    ) async throws -> (PaymentCardReadResult?, VASReadResult?) {
        let plan = try ReadPlan(request)
        let vas = ReaderCore.VASPlan(
            request: try vasRequest.readerRequest(mode: stopOnVASResult ? .vasOrPayment : .vasAndPayment),
            stopOnResult: stopOnVASResult)
        let tap = try await core.read(plan, vas: vas, session: sessionID)
        return (tap.payment, tap.vas)
    }

    /// Asks the cardholder for the PIN the issuer wants for the read `cardReaderTransactionID` (a result's
    /// ``PaymentCardReadResult/id``), within 55 s of the read, and returns, as Apple documents, both the read's card
    /// data and the PIN (ISO 9564 format 4 under the device's PIN key), sealed to the PSP in
    /// ``PaymentCardReadResult/paymentCardData``, for the app to send to its PSP with `token`
    /// (``PaymentCardReadResult/pinSubmission(pinToken:)``).
    ///
    /// Events: ``PaymentCardReader/Event/pinEntryRequested``, ``PaymentCardReader/Event/pinEntryCompleted``,
    /// ``PaymentCardReader/Event/userInterfaceDismissed``.
    /// - Throws: ``ReadError`` `pinTokenInvalid`, `pinNotAllowed` (unknown read, or the 55 s passed),
    ///   `pinCancelled`, `pinEntryTimeout`, `pinEntryFailed`, `readerSessionBusy`, `readFromBackgroundError`,
    ///   `readCancelled`.
    public func capturePIN(using token: PINToken, cardReaderTransactionID: String) async throws -> PaymentCardReadResult
    {
        try await core.capturePIN(token: token.rawValue, readID: cardReaderTransactionID, session: sessionID)
    }

    /// The merchant's business name as the PSP gave it at prepare, for SDKs layered on the reader (`Terminal`'s
    /// payment screen when the app sets no display name); not part of Apple's shape.
    package var merchantName: String? {
        get async { await core.merchantName(session: sessionID) }
    }

    /// The PSP session prepare issued for this device (its bearer and expiry), while this is the reader's session.
    ///
    /// Not ProximityReader's: the package's server-driven reader (`ServerDrivenReader`) runs the PSP's reader and
    /// uses it to ask the gateway for work and hand it the reads; an app has no use for it.
    package var gatewaySession: ReaderProvisioning.ReaderSession? {
        get async { await core.gatewaySession(session: sessionID) }
    }

    /// Cancels the read or PIN capture in progress; whether there was one to cancel.
    @discardableResult
    public func cancelRead() async -> Bool { await core.cancelRead(session: sessionID) }
}
