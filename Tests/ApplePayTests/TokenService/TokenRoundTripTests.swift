import ApplePay
import EMV
import Foundation
import Testing
import X509

@Suite("Token service → verifier: round trips")
struct TokenRoundTripTests {
    static func decryptor(
        pki: TestPaymentPKI = TokenServiceFixture.pki, roots: [Certificate]? = nil
    ) -> PaymentTokenDecryptor {
        PaymentTokenDecryptor(
            merchants: [TokenServiceFixture.ecMerchant, TokenServiceFixture.rsaMerchant],
            trustedRoots: roots ?? [pki.root], now: { TokenServiceFixture.signingTime }
        )
    }

    static func token(
        _ testCase: PaymentTokenServiceTests.Case, service: PaymentTokenService = TokenServiceFixture.service
    ) async throws -> PaymentToken {
        try await service.token(
            for: try PaymentTokenServiceTests.request(testCase), account: TokenServiceFixture.account,
            merchantCertificate: TokenServiceFixture.merchant(testCase.merchant).certificate,
            cryptogramSource: TokenServiceFixture.cryptogramSource
        )
    }

    @Test(
        "the verifier, trusting the test root, verifies and decrypts every kind of token",
        arguments: PaymentTokenServiceTests.cases
    )
    func verifiesAndDecrypts(testCase: PaymentTokenServiceTests.Case) async throws {
        let token = try await Self.token(testCase)
        let verified = try await Self.decryptor().decrypt(
            json: try JSONEncoder().encode(token), applicationData: testCase.applicationData.map { Array($0) }
        )
        #expect(verified.version == (testCase.merchant == .p256 ? .ecV1 : .rsaV1))
        #expect(verified.signingTime == TokenServiceFixture.signingTime)
        #expect(verified.transactionIdentifier == token.paymentData.header.transactionId)
        let payment = verified.payment
        #expect(payment.accountNumber == TokenServiceFixture.account.accountNumber)
        #expect(payment.expiry == TokenServiceFixture.account.expiry)
        #expect(payment.amount.minorUnits == 12_345)
        #expect(payment.amount.currency.alphabeticCode == "EUR")
        #expect(payment.cardholderName == "J Appleseed")
        switch (testCase.payload, payment.credential) {
        case (.threeDSecure, .threeDSecure(let cryptogram, let eci)):
            #expect(cryptogram == [UInt8](0x01...0x14))
            #expect(eci == "7")
        case (.emv, .emv(let data, let pin)):
            #expect(data == [0x9F, 0x26, 0x08] + [UInt8](0x21...0x28))
            #expect(pin == nil)
        default:
            Issue.record("credential of the wrong kind")
        }
    }

    @Test("a token with applicationData is refused when other data is supplied")
    func otherApplicationData() async throws {
        let token = try await Self.token(
            .init(merchant: .p256, payload: .threeDSecure, applicationData: Data("a".utf8)))
        await #expect(throws: ApplePayError.applicationDataMismatch) {
            try await Self.decryptor().decrypt(token, applicationData: Array("b".utf8))
        }
    }

    @Test("Apple's root alone does not trust the test PKI")
    func appleRootRefusesTestTokens() async throws {
        let token = try await Self.token(.init(merchant: .p256, payload: .threeDSecure))
        await #expect(throws: ApplePayError.untrustedRoot) {
            try await Self.decryptor(roots: [AppleRootCA.g3]).decrypt(token)
        }
    }

    @Test(
        "a PKI without a marker makes tokens the verifier refuses for that marker",
        arguments: [
            TestPaymentPKI.Markers.intermediate, .leaf,
        ])
    func missingMarker(kept: TestPaymentPKI.Markers) async throws {
        let pki = try TestPaymentPKI(validity: TokenServiceFixture.validity, markers: kept)
        let service = PaymentTokenService(pki: pki, clock: { TokenServiceFixture.signingTime })
        let token = try await Self.token(.init(merchant: .p256, payload: .threeDSecure), service: service)
        await #expect(throws: kept == .leaf ? ApplePayError.intermediateMarkerMissing : ApplePayError.leafMarkerMissing)
        {
            try await Self.decryptor(pki: pki).decrypt(token)
        }
    }

    @Test("a leaf that expired before the signing time makes tokens the verifier refuses")
    func expiredLeaf() async throws {
        let expired = DateInterval(start: TokenServiceFixture.validity.start, duration: 86_400)
        let pki = try TestPaymentPKI(validity: TokenServiceFixture.validity, leafValidity: expired)
        let service = PaymentTokenService(pki: pki, clock: { TokenServiceFixture.signingTime })
        let token = try await Self.token(.init(merchant: .p256, payload: .threeDSecure), service: service)
        await #expect(throws: ApplePayError.certificateNotValidAtSigningTime) {
            try await Self.decryptor(pki: pki).decrypt(token)
        }
    }

    @Test("a payload-level change (a flipped ciphertext byte) fails the signature's digest")
    func tamperedData() async throws {
        var token = try await Self.token(.init(merchant: .rsa2048, payload: .emv))
        var data = try #require(Data(base64Encoded: token.paymentData.data))
        data[0] ^= 0x01
        token.paymentData.data = data.base64EncodedString()
        await #expect(throws: ApplePayError.messageDigestMismatch) { try await Self.decryptor().decrypt(token) }
    }

    @Test("the simulated device's token decrypts with a merchant identity the test PKI minted")
    func endToEnd() async throws {
        let pki = TokenServiceFixture.pki
        let merchant = try pki.makeMerchantIdentity(merchantIdentifier: "merchant.com.example.shop", key: .p256)
        let device = SimulatedDevice(
            accounts: [TokenServiceFixture.account],
            tokenService: PaymentTokenService(pki: pki, clock: { TokenServiceFixture.signingTime }),
            cryptogramSource: TokenServiceFixture.cryptogramSource
        )
        let request = TokenRequest(
            merchantIdentifier: "merchant.com.example.shop",
            amount: Amount(minorUnits: 999, currency: try #require(Currency(alphabeticCode: "JPY")))
        )
        let token = try await device.authorize(request, merchantCertificate: merchant.certificate)
        // The replay store on the same pinned clock: with the real one, a 2026-03-01 token's id would count as
        // expired already and be forgotten.
        let decryptor = PaymentTokenDecryptor(
            merchants: [merchant], trustedRoots: [pki.root],
            replayStore: InMemoryTransactionReplayStore(now: { TokenServiceFixture.signingTime }),
            now: { TokenServiceFixture.signingTime }
        )
        let verified = try await decryptor.decrypt(token)
        #expect(verified.payment.amount.minorUnits == 999)
        #expect(verified.payment.amount.currency.alphabeticCode == "JPY")
        // Submitted twice, the same token is a replay.
        await #expect(throws: ApplePayError.tokenReplayed) { try await decryptor.decrypt(token) }
    }
}
