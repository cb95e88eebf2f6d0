public import GatewayAPI

/// The merchant's server, as the terminal needs it: reader tokens for the device, and the payment calls that take
/// the reader's sealed card data to the PSP with the merchant's credentials.
///
/// Apple's and Stripe's readers work the same way: the app never holds the PSP's secret key; its server does.
/// ``GatewayMerchantBackend`` is the real one over the PSP's HTTP API (for tests, demos, and servers written in
/// Swift); an app whose server speaks another protocol implements this with its own calls.
public protocol MerchantBackend: Sendable {
    /// A reader token for this device's user (`POST /v1/reader-tokens`).
    func readerToken() async throws -> ReaderToken

    /// Authorizes a read's sealed card data (`POST /v1/payments`): the payment, approved, declined, or waiting for
    /// the cardholder's PIN (``GatewayAPI/PaymentStatus/requiresPIN``).
    func authorizePayment(_ request: CreatePaymentRequest) async throws -> Payment

    /// Sends the cardholder's PIN for a payment that needs it (`POST /v1/payments/{id}/pin`).
    func submitPIN(_ submission: PINSubmission, paymentID: String) async throws -> Payment

    /// A card-present refund of a refund read's card data (`POST /v1/refunds`).
    func refund(_ request: CreateRefundRequest) async throws -> Refund
}
