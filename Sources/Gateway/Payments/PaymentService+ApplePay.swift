import ApplePay
import EMV
import Foundation
import GatewayAPI
import ISO8583

extension PaymentService {
    /// Authorizes an Apple Pay token: verifies and decrypts it (``ApplePayAcceptance``), checks that it carries
    /// the amount and currency asked, and sends the issuer a token 0100 (the device account number, its expiry, the
    /// online payment cryptogram and ECI). The payment then lives as any other: capture, void, refund.
    ///
    /// A merchant's server (API key) pays from the merchant's e-commerce terminal, a reader session from its
    /// device. The card shown is the DPAN's BIN and last four, entry mode `applePay`. `answer` stores the request's
    /// idempotent answer in the transaction that stores the outcome, as for card payments.
    func authorizeApplePay(
        _ request: CreateApplePayPaymentRequest, caller: Caller, acceptance: ApplePayAcceptance,
        answer: IdempotentResponder.Answer? = nil
    ) async throws -> GatewayAPI.Payment {
        guard caller.credential != .readerToken else {
            throw GatewayAPIError(code: .forbidden, message: "payments take a reader session or an API key")
        }
        try Self.checkAmount(request.amount)
        let currency = try Self.currency(request.currency)
        let verified = try await acceptance.verify(
            request.token, applicationData: request.applicationData, merchantId: caller.merchantId)
        let decrypted = verified.payment
        guard decrypted.amount.minorUnits == request.amount, decrypted.amount.currency == currency else {
            throw GatewayAPIError(
                code: .amountMismatch, message: "the amount or currency differs from the one the token was made for")
        }
        guard case .threeDSecure(let cryptogram, let eci) = decrypted.credential else {
            throw GatewayAPIError(
                code: .paymentTokenInvalid, message: "only 3DSecure tokens (a cryptogram) are supported, not EMV data")
        }
        let deviceId: String
        if let own = caller.deviceId {
            deviceId = own
        } else {
            deviceId = try await ecommerceDevice(merchantId: caller.merchantId)
        }
        let now = clock()
        var record = PaymentRecord(
            newPaymentOf: caller.merchantId, deviceId: deviceId, readId: nil, kind: .purchase,
            captureMethod: request.captureMethod ?? .automatic, amount: request.amount, currency: currency,
            card: PaymentCard(pan: decrypted.accountNumber, entryMode: "applePay"), at: now)
        let card = AuthorizationRequest.tokenCard(dpan: decrypted.accountNumber, expiry: decrypted.expiry)
        let message = try await prepareSend(
            &record, card: card, currency: currency, pinBlock: nil, opening: nil,
            token: TokenPaymentData(cryptogram: cryptogram, eci: eci), claim: answer?.claim)
        return try await exchange(message, record: record, card: card, answer: answer)
    }

    /// The merchant's e-commerce terminal: a device row of its own (`ecom_<merchant id>`) for the STAN and
    /// terminal id of payments that no reader made; registered on first use.
    func ecommerceDevice(merchantId: String) async throws -> String {
        let id = "ecom_\(merchantId)"
        let devices = DeviceRepository(database: database)
        if try await devices.device(merchantId: merchantId, id: id) == nil {
            _ = try await devices.register(merchantId: merchantId, id: id, actor: merchantId, now: clock())
        }
        return id
    }
}
