import GatewayAPI
import HTTPTypes
import Hummingbird

/// `POST /v1/applepay/payments`: authorizes an Apple Pay token, authenticated and idempotent like
/// `POST /v1/payments` (it shares ``PaymentController``'s body decoding and `Idempotency-Key` handling).
struct ApplePayController: Sendable {
    let payments: PaymentController
    let acceptance: ApplePayAcceptance

    func addRoutes(to group: some RouterMethods<GatewayRequestContext>) {
        group.post("v1/applepay/payments") { request, context in
            try await payments.mutate(request, context) { (body: CreateApplePayPaymentRequest, caller, claim) in
                do {
                    let answer = claim.map { IdempotentResponder.Answer(claim: $0, status: .created) }
                    let payment = try await payments.service.authorizeApplePay(
                        body, caller: caller, acceptance: acceptance, answer: answer)
                    payments.metrics.recordAuthorization(result: payment.status.rawValue)
                    return JSONResponse(payment, status: .created)
                } catch let error as GatewayAPIError {
                    payments.metrics.recordAuthorization(result: "\(error.code)")
                    throw error
                }
            }
        }
    }
}
