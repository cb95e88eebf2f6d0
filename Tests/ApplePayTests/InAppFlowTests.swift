import ApplePay
import EMV
import Foundation
import Testing

/// The whole in-app flow in one process: the sheet (``PaymentAuthorizationController``) with a merchant's delegate,
/// the simulated device and its token service, and the merchant's server verifying and decrypting the token.
@Suite("Apple Pay in-app flow: sheet → device → token → server")
struct InAppFlowTests {
    typealias Samples = PaymentRequestSamples
    static let orderData = Data("order-77".utf8)

    @Test("the token of an authorized sheet decrypts on the server to the sheet's final total, bound to the order")
    func sheetToServer() async throws {
        let pki = TokenServiceFixture.pki
        var request = Samples.basic
        request.applicationData = Self.orderData
        let merchant = try pki.makeMerchantIdentity(merchantIdentifier: request.merchantIdentifier, key: .p256)
        let device = SimulatedDevice(
            accounts: [TokenServiceFixture.account], tokenService: TokenServiceFixture.service,
            cryptogramSource: TokenServiceFixture.cryptogramSource)
        let controller = PaymentAuthorizationController(
            paymentRequest: request, wallet: Samples.wallet, delegate: TestMerchant(),
            tokenMaker: device.tokenMaker(
                merchantCertificate: merchant.certificate, accounts: ["mc-credit": TokenServiceFixture.account]))

        let outcome = try await controller.run([
            .selectPaymentMethod(cardID: "mc-credit"),
            .selectShippingContact(Samples.shippingContact),
            .selectShippingMethod(identifier: "air"),
            .authorize,
        ])
        guard case .authorized(let payment) = outcome else {
            Issue.record("not authorized: \(outcome)")
            return
        }

        let server = PaymentTokenDecryptor(
            merchants: [merchant], trustedRoots: [pki.root],
            replayStore: InMemoryTransactionReplayStore(now: { TokenServiceFixture.signingTime }),
            now: { TokenServiceFixture.signingTime })
        let verified = try await server.decrypt(payment.token, applicationData: Array(Self.orderData))
        // 20 book + 15 air + 0.50 credit surcharge, as the delegate priced the sheet
        let total = try await controller.paymentRequest.totalAmount()
        #expect(total == Amount(minorUnits: 3550, currency: .usd))
        #expect(verified.payment.amount == total)
        #expect(verified.payment.accountNumber == TokenServiceFixture.account.accountNumber)
        guard case .threeDSecure = verified.payment.credential else {
            Issue.record("not a 3-D Secure payload")
            return
        }
        // The same token for another order, or a second time, is refused.
        await #expect(throws: ApplePayError.applicationDataMismatch) {
            try await server.decrypt(payment.token, applicationData: Array("order-78".utf8))
        }
        await #expect(throws: ApplePayError.tokenReplayed) {
            try await server.decrypt(payment.token, applicationData: Array(Self.orderData))
        }
    }
}
