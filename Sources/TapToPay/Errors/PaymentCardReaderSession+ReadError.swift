public import EMV

extension PaymentCardReaderSession {
    /// An error of a card read or a PIN capture.
    ///
    /// The codes carry the names of ProximityReader's `PaymentCardReaderSession.ReadError` cases, and equality
    /// compares the code: `catch PaymentCardReaderSession.ReadError.readCancelled`, or in a test
    /// `#expect(throws: PaymentCardReaderSession.ReadError.invalidAmount)`. Messages never carry card data or PINs.
    public struct ReadError: CodedError {
        /// What went wrong: one of Apple's case names.
        public struct Code: Hashable, Sendable, CustomStringConvertible {
            fileprivate enum Base: String, Sendable, CaseIterable {
                case cardNotSupported, cardReadFailed, invalidAmount, invalidCurrencyCode, invalidPreferredAID
                case noReaderSession, paymentCardDeclined, pinCancelled, pinEntryFailed, pinEntryTimeout
                case pinNotAllowed, pinTokenInvalid, readCancelled, readFromBackgroundError, readerSessionBusy
                case readerSessionExpired
            }

            fileprivate let base: Base

            fileprivate init(_ base: Base) { self.base = base }

            /// The card has no application this reader accepts, or asks for another interface.
            public static let cardNotSupported = Code(.cardNotSupported)
            /// The card could not be read, also after the retries the reader offers.
            public static let cardReadFailed = Code(.cardReadFailed)
            /// The amount is not greater than zero, has more fraction digits than the currency, or is out of range
            /// (also a surcharge or pre-authorization amount out of range).
            public static let invalidAmount = Code(.invalidAmount)
            /// The currency code is not an ISO 4217 code the reader knows.
            public static let invalidCurrencyCode = Code(.invalidCurrencyCode)
            /// The preferred AID list has more than four entries, or one that is not 5 to 16 bytes.
            public static let invalidPreferredAID = Code(.invalidPreferredAID)
            /// This session is no longer the reader's session (a later prepare replaced it): prepare again.
            public static let noReaderSession = Code(.noReaderSession)
            /// The card declined the transaction offline.
            public static let paymentCardDeclined = Code(.paymentCardDeclined)
            /// The cardholder cancelled PIN entry.
            public static let pinCancelled = Code(.pinCancelled)
            /// The PIN entered could not be enciphered (not 4 to 12 digits).
            public static let pinEntryFailed = Code(.pinEntryFailed)
            /// The cardholder did not finish PIN entry in the time left.
            public static let pinEntryTimeout = Code(.pinEntryTimeout)
            /// PIN capture is not allowed: the 55 s after the read have passed, or the read is unknown.
            public static let pinNotAllowed = Code(.pinNotAllowed)
            /// The PIN token is empty.
            public static let pinTokenInvalid = Code(.pinTokenInvalid)
            /// The read was cancelled with `cancelRead()`.
            public static let readCancelled = Code(.readCancelled)
            /// The app is in the background (or went there during the read).
            public static let readFromBackgroundError = Code(.readFromBackgroundError)
            /// A read or PIN capture is already in progress on this reader.
            public static let readerSessionBusy = Code(.readerSessionBusy)
            /// The reader session from prepare expired: prepare again.
            public static let readerSessionExpired = Code(.readerSessionExpired)

            /// Every code.
            public static var allCases: [Code] { Base.allCases.map(Code.init) }

            /// Apple's case name, e.g. `readCancelled`.
            public var description: String { base.rawValue }
        }

        /// What went wrong.
        public let code: Code
        /// A human explanation, free of card data and PINs.
        public let message: String
        /// Source file that raised the error (not part of equality).
        public let file: String
        /// Source line that raised the error (not part of equality).
        public let line: UInt

        /// Creates an error.
        public init(code: Code, message: String, file: String = #fileID, line: UInt = #line) {
            self.code = code
            self.message = message
            self.file = file
            self.line = line
        }

        /// `PaymentCardReaderSession.ReadError`.
        public static var domain: String { "PaymentCardReaderSession.ReadError" }
        /// Apple's name for the error, e.g. `readCancelled`.
        public var errorName: String { code.description }
        /// `PaymentCardReaderSession.ReadError.readCancelled: …`.
        public var errorDescription: String { "\(Self.domain).\(code): \(message)" }
        /// The same as ``errorDescription``.
        public var description: String { errorDescription }

        private static func pattern(_ code: Code) -> ReadError { ReadError(code: code, message: "any \(code) error") }

        /// Matches any ``Code/cardNotSupported`` error.
        public static let cardNotSupported = pattern(.cardNotSupported)
        /// Matches any ``Code/cardReadFailed`` error.
        public static let cardReadFailed = pattern(.cardReadFailed)
        /// Matches any ``Code/invalidAmount`` error.
        public static let invalidAmount = pattern(.invalidAmount)
        /// Matches any ``Code/invalidCurrencyCode`` error.
        public static let invalidCurrencyCode = pattern(.invalidCurrencyCode)
        /// Matches any ``Code/invalidPreferredAID`` error.
        public static let invalidPreferredAID = pattern(.invalidPreferredAID)
        /// Matches any ``Code/noReaderSession`` error.
        public static let noReaderSession = pattern(.noReaderSession)
        /// Matches any ``Code/paymentCardDeclined`` error.
        public static let paymentCardDeclined = pattern(.paymentCardDeclined)
        /// Matches any ``Code/pinCancelled`` error.
        public static let pinCancelled = pattern(.pinCancelled)
        /// Matches any ``Code/pinEntryFailed`` error.
        public static let pinEntryFailed = pattern(.pinEntryFailed)
        /// Matches any ``Code/pinEntryTimeout`` error.
        public static let pinEntryTimeout = pattern(.pinEntryTimeout)
        /// Matches any ``Code/pinNotAllowed`` error.
        public static let pinNotAllowed = pattern(.pinNotAllowed)
        /// Matches any ``Code/pinTokenInvalid`` error.
        public static let pinTokenInvalid = pattern(.pinTokenInvalid)
        /// Matches any ``Code/readCancelled`` error.
        public static let readCancelled = pattern(.readCancelled)
        /// Matches any ``Code/readFromBackgroundError`` error.
        public static let readFromBackgroundError = pattern(.readFromBackgroundError)
        /// Matches any ``Code/readerSessionBusy`` error.
        public static let readerSessionBusy = pattern(.readerSessionBusy)
        /// Matches any ``Code/readerSessionExpired`` error.
        public static let readerSessionExpired = pattern(.readerSessionExpired)
    }
}
