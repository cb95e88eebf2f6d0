import ApplePay
import EMV
import Foundation
import Testing

/// No account number or cryptogram shows in errors, descriptions or dumps (DESIGN.md, security rules).
@Suite("Apple Pay sensitive data")
struct SensitiveDataTests {
    /// The gala-2021 secrets in each form they could leak in.
    static let secrets = [
        "5353756319181169", "AMwBRjPWDnAgAA7Rls7mAoABFA==", "00CC014633D60E7020000ED196CEE602800114",
        "yCUzDuNYTnUnANZEdxC7+DvPmqNslB2YWYn68SBsJHU=", "3GTXJ4RuP/IhS23hsdOw2J2ecAZmC0RasbPIFdC3nQM=",
    ]

    private func expectNoSecrets(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in Self.secrets {
            #expect(!text.localizedCaseInsensitiveContains(secret), "leaked a secret", sourceLocation: sourceLocation)
        }
    }

    @Test("a verified token's description, debug description and dump show the masked PAN only")
    func verifiedTokenIsMasked() async throws {
        let fixture = RealTokenFixture.gala
        let token = try await fixture.decryptor().decrypt(json: fixture.json)
        var dumped = ""
        dump(token, to: &dumped)
        var dumpedPayment = ""
        dump(token.payment, to: &dumpedPayment)
        var dumpedPayload = ""
        dump(token.payload, to: &dumpedPayload)
        for text in [
            "\(token)", String(reflecting: token), "\(token.payment)", String(reflecting: token.payment),
            "\(token.payload)", String(reflecting: token.payload), dumped, dumpedPayment, dumpedPayload,
        ] {
            expectNoSecrets(text)
        }
        #expect("\(token.payment)".contains("535375******1169"))
    }

    @Test("no error on the paths of a real token carries its PAN, cryptogram or keys")
    func errorsCarryNoSecrets() async throws {
        let fixture = RealTokenFixture.gala
        let gala = try fixture.identity
        var errors: [any Error] = []
        func collect(_ body: () async throws -> Void) async {
            do { try await body() } catch { errors.append(error) }
        }
        let decryptor = try fixture.decryptor()
        await collect { _ = try await decryptor.decrypt(json: fixture.json) }
        await collect { _ = try await decryptor.decrypt(json: fixture.json) }  // replayed
        await collect { _ = try await fixture.decryptor(offset: 1_000).decrypt(json: fixture.json) }
        let wrong = try MerchantIdentity(
            certificate: gala.certificate, privateKey: gala.privateKey, merchantIdentifier: "merchant.other")
        await collect { _ = try await fixture.decryptor(merchants: [wrong]).decrypt(json: fixture.json) }
        await collect {
            _ = try await fixture.decryptor().decrypt(json: fixture.json, applicationData: [1])
        }
        // The payload checks see the PAN and cryptogram: each invalid field names itself, never the values.
        var payload = PaymentTokenDecryptorErrorTests.samplePayload
        payload.applicationPrimaryAccountNumber = "5353756319181169X"
        await collect { _ = try DecryptedPayment(payload: payload) }
        payload = PaymentTokenDecryptorErrorTests.samplePayload
        payload.paymentData.onlinePaymentCryptogram = "AMwBRjPWDnAgAA7Rls7mAoABFA==!"
        await collect { _ = try DecryptedPayment(payload: payload) }
        #expect(errors.count == 6)
        for error in errors {
            expectNoSecrets("\(error)")
            expectNoSecrets(String(reflecting: error))
            #expect(error is ApplePayError)
        }
    }
}
