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

    /// Cancels the read or PIN capture in progress; whether there was one to cancel.
    @discardableResult
    public func cancelRead() async -> Bool { await core.cancelRead(session: sessionID) }
}
