import TestMode
import _CryptoExtras
import ApplePay
import ContactlessTesting
import Crypto
import EMV
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import HummingbirdTesting
import Issuer
import NIOCore
import SwiftASN1
import Testing
import X509

/// `POST /v1/applepay/payments` over a live port, end to end: the test token service mints real-format tokens
/// (signed by its test PKI, which the gateway is told to trust) with cryptograms from the issuer's token vault; the
/// gateway verifies and decrypts them with the merchant's registered identity and the issuer authorizes the DPAN.
@Suite("Apple Pay payments through the gateway", .serialized)
struct ApplePayPaymentTests {
    static let merchantIdentifier = "merchant.dev.contactless.live"

    /// The live gateway, its trusted test PKI, the merchant's identity (registered), a token for the approve card.
    struct Setup {
        let gateway: LiveGateway
        let pki: TestPaymentPKI
        let identity: MerchantIdentity
        let vault: TokenVault
        let provisioned: TokenVault.ProvisionedToken
        let card: TestCard
        let atc = ATC()

        /// A token for `minorUnits` EUR cents signed at `signedAt` (the clock's now by default).
        func token(minorUnits: Int = 1_000, signedAt: Date? = nil, applicationData: Data? = nil) async throws
            -> ApplePayTokenJSON
        {
            let clock = gateway.clock
            let service = PaymentTokenService(pki: pki, clock: { signedAt ?? clock.now })
            let vault = vault
            let dpan = provisioned.dpan
            let counter = atc
            let token = try await service.token(
                for: TokenRequest(
                    merchantIdentifier: ApplePayPaymentTests.merchantIdentifier,
                    amount: Amount(minorUnits: minorUnits, currency: .eur), applicationData: applicationData),
                account: DeviceAccount(accountNumber: dpan, expiry: provisioned.token.expiry, network: "Visa"),
                merchantCertificate: identity.certificate,
                cryptogramSource: { request in
                    let cryptogram = try vault.makeCryptogram(
                        dpan: request.accountNumber, amount: request.amount.minorUnits,
                        currency: request.amount.currency, atc: counter.next(), at: request.date)
                    return .threeDSecure(onlinePaymentCryptogram: cryptogram.bytes, eciIndicator: "07")
                })
            return try ApplePayTokenJSON(json: JSONEncoder().encode(token))
        }

        /// Pays with `token` as the merchant's server.
        func pay(
            _ token: ApplePayTokenJSON, minorUnits: Int = 1_000, currency: String = "EUR",
            captureMethod: CaptureMethod? = nil, applicationData: String? = nil,
            idempotencyKey: String = UUID().uuidString
        ) async throws -> TestResponseView {
            let response = try await gateway.post(
                "/v1/applepay/payments",
                CreateApplePayPaymentRequest(
                    token: token, amount: minorUnits, currency: currency, captureMethod: captureMethod,
                    applicationData: applicationData),
                bearer: gateway.apiKey, idempotencyKey: idempotencyKey)
            return TestResponseView(status: Int(response.status.code), text: response.text)
        }
    }

    /// The status and body of a response.
    struct TestResponseView {
        let status: Int
        let text: String

        func payment() throws -> GatewayAPI.Payment {
            try JSONDecoder.gatewayAPI.decode(GatewayAPI.Payment.self, from: Data(text.utf8))
        }
        func code() throws -> String? {
            try JSONDecoder().decode(Problem.self, from: Data(text.utf8)).code
        }
    }

    /// The device's transaction counter.
    final class ATC: @unchecked Sendable {
        private let lock = NSLock()
        private var value: UInt16 = 0
        func next() -> UInt16 {
            lock.withLock {
                value += 1; return value
            }
        }
    }

    static func with(
        _ kind: TestDatabases.Kind, key: TestPaymentPKI.MerchantKeyType = .p256,
        _ body: @Sendable (Setup) async throws -> Void
    ) async throws {
        let now = Date()
        let pki = try TestPaymentPKI(
            validity: DateInterval(start: now.addingTimeInterval(-86_400), duration: 86_400 * 30))
        let rootPEM = try pki.root.serializeAsPEM().pemString
        try await LiveGateway.with(kind, applePayRootsPEM: [rootPEM]) { gateway in
            let identity = try pki.makeMerchantIdentity(merchantIdentifier: merchantIdentifier, key: key)
            let keyPEM: String =
                switch identity.privateKey {
                case .p256(let key): key.pemRepresentation
                case .rsa(let key): key.pemRepresentation
                }
            _ = try await ApplePayIdentityRepository(
                database: gateway.application.database, keys: gateway.application.keys
            )
            .register(
                merchantId: gateway.merchantId, certificatePEM: try identity.certificate.serializeAsPEM().pemString,
                privateKeyPEM: keyPEM, actor: "test", at: gateway.clock.now)
            let keys = try #require(gateway.application.embeddedIssuerKeys)
            let repository = SQLIssuerRepository(database: gateway.application.database)
            let vault = TokenVault(keys: keys, accounts: repository, tokens: repository)
            let card = try #require(TestCards.card(.approve, .visa))
            let provisioned = try await vault.provision(
                fundingPAN: try PAN(card.pan), requestor: "applePay", at: gateway.clock.now)
            try await body(
                Setup(
                    gateway: gateway, pki: pki, identity: identity, vault: vault, provisioned: provisioned, card: card))
        }
    }

    @Test(
        "a token pays: verified, decrypted, authorized by the issuer's vault on the funding card; DPAN shown masked",
        arguments: TestDatabases.kinds)
    func pays(kind: TestDatabases.Kind) async throws {
        try await Self.with(kind) { setup in
            let before = try await setup.gateway.balance(setup.card)
            let response = try await setup.pay(try await setup.token(minorUnits: 1_250), minorUnits: 1_250)
            #expect(response.status == 201, "\(response.text)")
            let payment = try response.payment()
            #expect(payment.status == .succeeded)
            #expect(payment.card?.entryMode == "applePay")
            #expect(payment.card?.bin == String(setup.provisioned.dpan.digits.prefix(6)))
            #expect(payment.card?.last4 == setup.provisioned.dpan.lastFour)
            #expect(payment.issuer?.responseCode == "00")
            #expect(!response.text.contains(setup.provisioned.dpan.digits))
            #expect(try await setup.gateway.balance(setup.card) == before.map { $0 - 1_250 })
            #expect(try await setup.vault.token(for: setup.provisioned.dpan)?.lastATC == 1)
            // The logs never show the DPAN.
            #expect(!setup.gateway.logs.text.contains(setup.provisioned.dpan.digits))
        }
    }

    @Test("a replayed token is refused (409 paymentTokenReplayed); the same idempotency key replays the answer")
    func replay() async throws {
        try await Self.with(.sqlite) { setup in
            let token = try await setup.token()
            let key = UUID().uuidString
            let first = try await setup.pay(token, idempotencyKey: key)
            #expect(first.status == 201)
            let again = try await setup.pay(token, idempotencyKey: key)
            #expect(again.status == 201)
            #expect(try again.payment().id == first.payment().id)
            let replayed = try await setup.pay(token)
            #expect(replayed.status == 409)
            #expect(try replayed.code() == "paymentTokenReplayed")
        }
    }

    @Test("a token signed outside the 5-minute window is refused (410 paymentTokenExpired)")
    func expired() async throws {
        try await Self.with(.sqlite) { setup in
            let old = try await setup.token(signedAt: setup.gateway.clock.now.addingTimeInterval(-600))
            let response = try await setup.pay(old)
            #expect(response.status == 410)
            #expect(try response.code() == "paymentTokenExpired")
        }
    }

    @Test("amount or currency other than the token's: 400 amountMismatch; a tampered token: 400 paymentTokenInvalid")
    func mismatches() async throws {
        try await Self.with(.sqlite) { setup in
            let response = try await setup.pay(try await setup.token(minorUnits: 1_000), minorUnits: 999)
            #expect(response.status == 400)
            #expect(try response.code() == "amountMismatch")
            let currency = try await setup.pay(try await setup.token(), currency: "USD")
            #expect(try currency.code() == "amountMismatch")
            var json = try JSONSerialization.jsonObject(with: try await setup.token().json) as? [String: Any] ?? [:]
            var paymentData = json["paymentData"] as? [String: Any] ?? [:]
            var data = Array(Data(base64Encoded: paymentData["data"] as? String ?? "") ?? Data())
            data[data.count / 2] ^= 0x01
            paymentData["data"] = Data(data).base64EncodedString()
            json["paymentData"] = paymentData
            let tampered = try ApplePayTokenJSON(json: JSONSerialization.data(withJSONObject: json))
            let refused = try await setup.pay(tampered)
            #expect(refused.status == 400)
            #expect(try refused.code() == "paymentTokenInvalid")
            #expect(!refused.text.contains(setup.provisioned.dpan.digits))
        }
    }

    @Test("applicationData is checked against the header's hash when given")
    func applicationData() async throws {
        try await Self.with(.sqlite) { setup in
            let appData = Data("order-42".utf8)
            let token = try await setup.token(applicationData: appData)
            let wrong = try await setup.pay(token, applicationData: Data("order-43".utf8).base64EncodedString())
            #expect(try wrong.code() == "paymentTokenInvalid")
            let right = try await setup.pay(token, applicationData: appData.base64EncodedString())
            #expect(right.status == 201, "\(right.text)")
        }
    }

    @Test("manual capture, void (reversed at the issuer through the vault) and refund work as for card payments")
    func lifecycle() async throws {
        try await Self.with(.sqlite, key: .rsa2048) { setup in
            let before = try await setup.gateway.balance(setup.card)
            let held = try await setup.pay(
                try await setup.token(minorUnits: 700), minorUnits: 700, captureMethod: .manual)
            #expect(held.status == 201, "\(held.text)")
            let payment = try held.payment()
            #expect(payment.status == .requiresCapture)
            #expect(try await setup.gateway.balance(setup.card) == before.map { $0 - 700 })
            let voided = try await setup.gateway.post(
                "/v1/payments/\(payment.id)/void", [String: String](), bearer: setup.gateway.apiKey)
            #expect(voided.status.code == 200, "\(voided.text)")
            // The reversal goes to the issuer (now or by the sweep): the funding balance comes back.
            var restored = false
            for _ in 0..<50 where !restored {
                restored = try await setup.gateway.balance(setup.card) == before
                if !restored { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(restored)
            let paid = try await setup.pay(try await setup.token(minorUnits: 900), minorUnits: 900)
            let paidId = try paid.payment().id
            let refund = try await setup.gateway.post(
                "/v1/payments/\(paidId)/refunds", CreateRefundRequest(amount: 400),
                bearer: setup.gateway.apiKey)
            #expect(refund.status.code == 201, "\(refund.text)")
        }
    }

    @Test("a merchant without a registered certificate for the token's key: 400 paymentTokenInvalid")
    func unknownKey() async throws {
        try await Self.with(.sqlite) { setup in
            let other = try setup.pki.makeMerchantIdentity(merchantIdentifier: Self.merchantIdentifier)
            let clock = setup.gateway.clock
            let service = PaymentTokenService(pki: setup.pki, clock: { clock.now })
            let vault = setup.vault
            let token = try await service.token(
                for: TokenRequest(
                    merchantIdentifier: Self.merchantIdentifier, amount: Amount(minorUnits: 1_000, currency: .eur)),
                account: DeviceAccount(
                    accountNumber: setup.provisioned.dpan, expiry: setup.provisioned.token.expiry, network: "Visa"),
                merchantCertificate: other.certificate,
                cryptogramSource: { request in
                    .threeDSecure(
                        onlinePaymentCryptogram: try vault.makeCryptogram(
                            dpan: request.accountNumber, amount: 1_000, currency: .eur, atc: 1, at: request.date
                        ).bytes, eciIndicator: nil)
                })
            let response = try await setup.pay(try ApplePayTokenJSON(json: JSONEncoder().encode(token)))
            #expect(response.status == 400)
            #expect(try response.code() == "paymentTokenInvalid")
        }
    }
}
