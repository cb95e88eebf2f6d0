import EMV
import Foundation
import GatewayAPI
import NIOCore
import NIOHTTP1
import ReaderKernel

/// The demo's last leg: the reader seals the read to the PSP and the gateway — in this process, on a loopback port,
/// with SQLite and the issuer host — authorises it over ISO 8583 and answers with the payment.
struct GatewayAuthorization: Encodable {
    /// The payment's id; nil when the gateway refused the request.
    var paymentId: String?
    /// The payment's status (`succeeded`, `declined`, …), or the refusal's problem code.
    var status: String
    /// Field 39 of the issuer's answer.
    var responseCode: String?
    /// Field 38, when approved.
    var approvalCode: String?
    /// Whether the issuer returned an ARPC (tag 91) for the card.
    var arpcReturned: Bool
    /// How the card shows on the payment: BIN and last four.
    var card: String?

    /// Starts a gateway, onboards a merchant and prepares this reader, seals `data` and authorises `amount`.
    static func authorize(_ data: CardAuthorizationData, amount: Amount) async throws -> GatewayAuthorization {
        try await EmbeddedGateway.with(connections: 1, progress: { _ in }) { gateway in
            let sealed = try gateway.provisioning.cardDataKey.sealer().seal(
                CardDataPayload(
                    deviceId: gateway.deviceId, merchantId: gateway.merchantId, createdAt: Date(),
                    authorization: data))
            let request = CreatePaymentRequest(
                cardData: sealed, amount: amount.minorUnits, currency: amount.currency.alphabeticCode)
            let answer = try await gateway.client.send(
                .POST, "/v1/payments",
                headers: [
                    ("Authorization", "Bearer \(gateway.provisioning.session.token)"),
                    ("Idempotency-Key", UUID.timeOrdered().uppercaseText),
                ],
                body: ByteBuffer(bytes: Array(try JSONEncoder.gatewayAPI.encode(request))))
            let body = Data(answer.body.readableBytesView)
            if let payment = try? JSONDecoder.gatewayAPI.decode(Payment.self, from: body) {
                return GatewayAuthorization(
                    paymentId: payment.id, status: payment.status.rawValue, responseCode: payment.issuer?.responseCode,
                    approvalCode: payment.issuer?.approvalCode,
                    arpcReturned: payment.issuer?.authenticationData != nil,
                    card: payment.card.map { "\($0.scheme) \($0.bin)…\($0.last4)" })
            }
            let problem = try JSONDecoder.gatewayAPI.decode(Problem.self, from: body)
            return GatewayAuthorization(
                paymentId: nil, status: problem.code, responseCode: nil, approvalCode: nil, arpcReturned: false,
                card: nil)
        }
    }
}
