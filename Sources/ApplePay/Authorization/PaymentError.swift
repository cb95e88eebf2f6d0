public import EMV

/// An error the merchant reports back to the sheet in an update or an authorization result, as PassKit's
/// `PKPaymentError` (its codes, and the contact field or postal address key the error points at).
///
/// Equality compares ``code`` only, so tests write `#expect(update.errors == [PaymentError.couponCodeExpired])`.
/// Make them with ``PaymentRequest``'s PassKit-named factories such as
/// ``PaymentRequest/paymentContactInvalidError(withContactField:localizedDescription:)``.
public struct PaymentError: CodedError {
    /// What is wrong, as `PKPaymentError.Code`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable, CaseIterable {
            case unknown, shippingContactInvalid, billingContactInvalid, shippingAddressUnserviceable
            case couponCodeInvalid, couponCodeExpired
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// An error PassKit has no code for.
        public static let unknown = Code(.unknown)
        /// A field of the shipping contact is invalid (``PaymentError/contactField`` says which).
        public static let shippingContactInvalid = Code(.shippingContactInvalid)
        /// A field of the billing contact is invalid (``PaymentError/contactField`` says which).
        public static let billingContactInvalid = Code(.billingContactInvalid)
        /// The merchant does not ship to the address.
        public static let shippingAddressUnserviceable = Code(.shippingAddressUnserviceable)
        /// The coupon code is not one the merchant knows.
        public static let couponCodeInvalid = Code(.couponCodeInvalid)
        /// The coupon code is no longer valid.
        public static let couponCodeExpired = Code(.couponCodeExpired)

        /// Every code.
        public static var allCases: [Code] { Base.allCases.map(Code.init) }

        /// The code's name, as in `PaymentError.Code.couponCodeExpired`.
        public var description: String { base.rawValue }
    }

    /// What is wrong.
    public let code: Code
    /// The contact field the error points at, for contact errors.
    public let contactField: ContactField?
    /// The `CNPostalAddress` key (`postalCode`, `street`, …) the error points at, for address errors.
    public let postalAddressKey: String?
    /// The text the sheet shows (PassKit's `localizedDescription`).
    public let message: String
    /// Source file that made the error (not part of equality).
    public let file: String
    /// Source line that made the error (not part of equality).
    public let line: UInt

    /// Creates an error.
    public init(
        code: Code, contactField: ContactField? = nil, postalAddressKey: String? = nil, message: String,
        file: String = #fileID, line: UInt = #line
    ) {
        self.code = code
        self.contactField = contactField
        self.postalAddressKey = postalAddressKey
        self.message = message
        self.file = file
        self.line = line
    }

    private static func pattern(_ code: Code) -> PaymentError { PaymentError(code: code, message: "any \(code) error") }

    /// Matches any ``Code/unknown`` error.
    public static let unknown = pattern(.unknown)
    /// Matches any ``Code/shippingContactInvalid`` error.
    public static let shippingContactInvalid = pattern(.shippingContactInvalid)
    /// Matches any ``Code/billingContactInvalid`` error.
    public static let billingContactInvalid = pattern(.billingContactInvalid)
    /// Matches any ``Code/shippingAddressUnserviceable`` error.
    public static let shippingAddressUnserviceable = pattern(.shippingAddressUnserviceable)
    /// Matches any ``Code/couponCodeInvalid`` error.
    public static let couponCodeInvalid = pattern(.couponCodeInvalid)
    /// Matches any ``Code/couponCodeExpired`` error.
    public static let couponCodeExpired = pattern(.couponCodeExpired)
}
