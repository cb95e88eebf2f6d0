extension PaymentCardReaderSession {
    /// An error of a card read or a PIN capture.
    ///
    /// The cases are ProximityReader's, so code written against Apple's framework compiles and switches exhaustively:
    /// `catch PaymentCardReaderSession.ReadError.readCancelled`, `switch error { case .pinNotAllowed: … }`. Cases this
    /// platform never raises say why in their documentation. Descriptions never carry card data or PINs.
    public enum ReadError: Error, Sendable, Hashable {
        /// The card has no application this reader accepts, or asks for another interface.
        case cardNotSupported
        /// The card could not be read, also after the retries the reader offers.
        case cardReadFailed
        /// The amount is not greater than zero, has more fraction digits than the currency, or is out of range
        /// (also a surcharge or pre-authorization amount out of range).
        case invalidAmount
        /// The currency code is not an ISO 4217 code the reader knows.
        case invalidCurrencyCode
        /// The preferred AID list has more than four entries, or one that is not 5 to 16 bytes.
        case invalidPreferredAID
        /// The VAS request names no merchant, or one with an empty or repeated id.
        case invalidVASMerchants(String?)
        /// A VAS merchant sends its URL only but has none, or its URL is not https.
        case invalidVASRequestParameters(String?)
        /// NFC is off. Never raised here: a configured contactless interface is on.
        case nfcDisabled
        /// This session is no longer the reader's session (a later prepare replaced it): prepare again.
        case noReaderSession
        /// Reads need a device passcode. Never raised here: there is no device passcode.
        case passcodeDisabled
        /// The card declined the transaction offline.
        case paymentCardDeclined
        /// An internal failure stopped the read. Never raised here: such failures are ``cardReadFailed``.
        case paymentReadFailed
        /// The cardholder cancelled PIN entry.
        case pinCancelled
        /// The PIN entered could not be enciphered (not 4 to 12 digits).
        case pinEntryFailed
        /// The cardholder did not finish PIN entry in the time left.
        case pinEntryTimeout
        /// PIN capture is not allowed: the 55 s after the read have passed, or the read is unknown.
        case pinNotAllowed
        /// The PIN token is empty.
        case pinTokenInvalid
        /// The read was cancelled with `cancelRead()` (or its task was cancelled).
        case readCancelled
        /// The app is in the background (or went there during the read).
        case readFromBackgroundError
        /// Reads are not allowed now. Never raised here: there are no entitlements to miss.
        case readNotAllowed
        /// Reads are not allowed during a phone call. Never raised here: there are no calls.
        case readNotAllowedDuringCall
        /// The reader could not initialize. Never raised here: the reader is ready once prepared.
        case readerInitializationFailed
        /// The reader is temporarily unavailable. Never raised here: see ``readerSessionBusy``.
        case readerNotAvailable
        /// The session could not reach the system UI. Never raised here: there is no separate UI service.
        case readerServiceConnectionError
        /// The reader service is in a bad state. Never raised here: there is no separate reader service.
        case readerServiceError
        /// Refreshing the session failed authentication. Never raised here: sessions are not refreshed; they
        /// expire (``readerSessionExpired``).
        case readerSessionAuthenticationError
        /// A read or PIN capture is already in progress on this reader.
        case readerSessionBusy
        /// The reader session from prepare expired: prepare again.
        case readerSessionExpired
        /// A network error stopped a session refresh. Never raised here: sessions are not refreshed.
        case readerSessionNetworkError
        /// The reader token expired. Never raised here: an expired token fails the prepare
        /// (``PaymentCardReaderError/tokenExpired``), and a prepared session holds its own credential.
        case readerTokenExpired
        /// A Store and Forward decline came too late. Never raised here: there is no Store and Forward mode.
        case storeAndForwardDeclineFailed
        /// A Store and Forward read was not found. Never raised here: there is no Store and Forward mode.
        case storeAndForwardResultNotFound
        /// Loyalty passes could not be read: the card in the field has no VAS application (a plain card for
        /// ``PaymentCardReaderSession/readVAS(_:)``), or the tap kept failing during the VAS step.
        case vasReadFail
        /// An unexpected error. Never raised here: every failure of a read maps to one of the cases above.
        case unknown(code: Int)

        /// Apple's name for the case (the enum prints as it, as Apple's does), e.g. `readCancelled`.
        public var errorName: String {
            switch self {
            case .invalidVASMerchants: "invalidVASMerchants"
            case .invalidVASRequestParameters: "invalidVASRequestParameters"
            case .unknown: "unknown"
            default: String(describing: self)
            }
        }

        /// What went wrong, in plain text.
        public var errorDescription: String {
            switch self {
            case .cardNotSupported: "The card is not supported by this reader."
            case .cardReadFailed: "The card could not be read."
            case .invalidAmount: "The request's amount is invalid."
            case .invalidCurrencyCode: "The request's currency code is invalid."
            case .invalidPreferredAID: "The request's preferred AIDs are invalid."
            case .invalidVASMerchants(let why): "The VAS merchants are invalid\(why.map { ": \($0)" } ?? ".")"
            case .invalidVASRequestParameters(let why):
                "The VAS request's parameters are invalid\(why.map { ": \($0)" } ?? ".")"
            case .nfcDisabled: "NFC is disabled."
            case .noReaderSession: "This session is not the reader's session: prepare again."
            case .passcodeDisabled: "Reads need a device passcode."
            case .paymentCardDeclined: "The card declined the transaction."
            case .paymentReadFailed: "An internal failure stopped the read."
            case .pinCancelled: "The cardholder cancelled PIN entry."
            case .pinEntryFailed: "The PIN could not be captured."
            case .pinEntryTimeout: "PIN entry was not completed in time."
            case .pinNotAllowed: "PIN capture is not allowed: the 55 seconds after the read have passed."
            case .pinTokenInvalid: "The PIN token is invalid."
            case .readCancelled: "The read was cancelled."
            case .readFromBackgroundError: "Reads are not allowed while the app is in the background."
            case .readNotAllowed: "The read is not allowed now."
            case .readNotAllowedDuringCall: "Reads are not allowed during a call."
            case .readerInitializationFailed: "The reader could not initialize."
            case .readerNotAvailable: "The reader is temporarily unavailable."
            case .readerServiceConnectionError: "The reader could not connect to its services."
            case .readerServiceError: "The reader service is in a bad state."
            case .readerSessionAuthenticationError: "Refreshing the reader session failed authentication."
            case .readerSessionBusy: "A read or PIN capture is already in progress."
            case .readerSessionExpired: "The reader session expired: prepare again."
            case .readerSessionNetworkError: "A network error stopped the reader session's refresh."
            case .readerTokenExpired: "The reader token expired."
            case .storeAndForwardDeclineFailed: "The Store and Forward decline came too late."
            case .storeAndForwardResultNotFound: "The Store and Forward read was not found."
            case .vasReadFail: "The loyalty pass could not be read."
            case .unknown(let code): "An unexpected error happened (code \(code))."
            }
        }
    }
}
