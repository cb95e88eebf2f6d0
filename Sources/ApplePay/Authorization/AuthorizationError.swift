public import EMV

/// Why the simulated sheet refused a step: the request cannot be shown, the user's action is not possible now, or
/// the merchant's update or token maker failed.
///
/// Equality compares ``code`` only, so tests write `#expect(throws: AuthorizationError.alreadyAuthorized)`.
public struct AuthorizationError: CodedError {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable, CaseIterable {
            case invalidRequest, paymentsUnavailable, noEligiblePaymentMethod, notPresented, alreadyPresented
            case finished, alreadyAuthorized, paymentMethodUnavailable, unknownShippingMethod
            case shippingContactNotEditable, couponCodeNotSupported, unresolvedErrors, missingContactField
            case invalidUpdate, tokenUnavailable
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The request fails ``PaymentRequest/validate(_:)`` (``AuthorizationError/underlying`` has why).
        public static let invalidRequest = Code(.invalidRequest)
        /// The device does not support Apple Pay.
        public static let paymentsUnavailable = Code(.paymentsUnavailable)
        /// The wallet holds no card the request accepts.
        public static let noEligiblePaymentMethod = Code(.noEligiblePaymentMethod)
        /// An action before ``PaymentAuthorizationController/present()``.
        public static let notPresented = Code(.notPresented)
        /// ``PaymentAuthorizationController/present()`` called twice.
        public static let alreadyPresented = Code(.alreadyPresented)
        /// An action after the sheet closed (cancelled, dismissed or paid).
        public static let finished = Code(.finished)
        /// A second authorization after a successful one.
        public static let alreadyAuthorized = Code(.alreadyAuthorized)
        /// The chosen card is not in the wallet or the request does not accept it.
        public static let paymentMethodUnavailable = Code(.paymentMethodUnavailable)
        /// The chosen shipping method is not among the request's.
        public static let unknownShippingMethod = Code(.unknownShippingMethod)
        /// The request's shipping contact is a store pickup address, which cannot be changed.
        public static let shippingContactNotEditable = Code(.shippingContactNotEditable)
        /// A coupon code entered where the request does not support coupon codes.
        public static let couponCodeNotSupported = Code(.couponCodeNotSupported)
        /// Authorization while the sheet still shows the merchant's errors.
        public static let unresolvedErrors = Code(.unresolvedErrors)
        /// Authorization without a contact field the request requires.
        public static let missingContactField = Code(.missingContactField)
        /// The merchant's update leaves an invalid request (``AuthorizationError/underlying`` has why).
        public static let invalidUpdate = Code(.invalidUpdate)
        /// The token maker failed; the sheet stays so the customer can retry or cancel.
        public static let tokenUnavailable = Code(.tokenUnavailable)

        /// Every code.
        public static var allCases: [Code] { Base.allCases.map(Code.init) }

        /// The code's name, as in `AuthorizationError.Code.finished`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The request's validation error, for ``Code/invalidRequest`` and ``Code/invalidUpdate``.
    public let underlying: PaymentRequestError?
    /// A human explanation, free of contact details and card data.
    public let message: String
    /// Source file that raised the error (not part of equality).
    public let file: String
    /// Source line that raised the error (not part of equality).
    public let line: UInt

    /// Creates an error.
    public init(
        code: Code, message: String, underlying: PaymentRequestError? = nil, file: String = #fileID,
        line: UInt = #line
    ) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.file = file
        self.line = line
    }

    private static func pattern(_ code: Code) -> AuthorizationError {
        AuthorizationError(code: code, message: "any \(code) error")
    }

    /// Matches any ``Code/invalidRequest`` error.
    public static let invalidRequest = pattern(.invalidRequest)
    /// Matches any ``Code/paymentsUnavailable`` error.
    public static let paymentsUnavailable = pattern(.paymentsUnavailable)
    /// Matches any ``Code/noEligiblePaymentMethod`` error.
    public static let noEligiblePaymentMethod = pattern(.noEligiblePaymentMethod)
    /// Matches any ``Code/notPresented`` error.
    public static let notPresented = pattern(.notPresented)
    /// Matches any ``Code/alreadyPresented`` error.
    public static let alreadyPresented = pattern(.alreadyPresented)
    /// Matches any ``Code/finished`` error.
    public static let finished = pattern(.finished)
    /// Matches any ``Code/alreadyAuthorized`` error.
    public static let alreadyAuthorized = pattern(.alreadyAuthorized)
    /// Matches any ``Code/paymentMethodUnavailable`` error.
    public static let paymentMethodUnavailable = pattern(.paymentMethodUnavailable)
    /// Matches any ``Code/unknownShippingMethod`` error.
    public static let unknownShippingMethod = pattern(.unknownShippingMethod)
    /// Matches any ``Code/shippingContactNotEditable`` error.
    public static let shippingContactNotEditable = pattern(.shippingContactNotEditable)
    /// Matches any ``Code/couponCodeNotSupported`` error.
    public static let couponCodeNotSupported = pattern(.couponCodeNotSupported)
    /// Matches any ``Code/unresolvedErrors`` error.
    public static let unresolvedErrors = pattern(.unresolvedErrors)
    /// Matches any ``Code/missingContactField`` error.
    public static let missingContactField = pattern(.missingContactField)
    /// Matches any ``Code/invalidUpdate`` error.
    public static let invalidUpdate = pattern(.invalidUpdate)
    /// Matches any ``Code/tokenUnavailable`` error.
    public static let tokenUnavailable = pattern(.tokenUnavailable)
}
