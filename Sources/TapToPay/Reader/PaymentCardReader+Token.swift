extension PaymentCardReader {
    /// A reader token from the PSP (its `POST /v1/reader-tokens`): a JWT naming the merchant and the merchant user.
    ///
    /// A bearer credential: ``description`` leaves the value out.
    public struct Token: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The JWT.
        public let rawValue: String

        /// Wraps a token.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `Token(… characters)`.
        public var description: String { "Token(\(rawValue.count) characters)" }
    }
}

extension PaymentCardReaderSession {
    /// The PSP's PIN token for a payment that needs the cardholder's PIN (its `pinRequest.pinToken`).
    ///
    /// ``description`` leaves the value out.
    public struct PINToken: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The token.
        public let rawValue: String

        /// Wraps a token.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `PINToken(… characters)`.
        public var description: String { "PINToken(\(rawValue.count) characters)" }
    }
}
