import ApplePay
import Crypto
import EMV
import Foundation
import Testing

/// The real Apple-signed tokens of Fixtures/ verify and decrypt at their signing times, matching SOURCES.md.
@Suite("Real Apple Pay tokens")
struct RealTokenTests {
    @Test("each real token verifies and decrypts at its signing time", arguments: RealTokenFixture.all)
    func verifiesAndDecrypts(fixture: RealTokenFixture) async throws {
        let token = try await fixture.decryptor().decrypt(json: fixture.json)
        #expect(token.signingTime == fixture.signingTime)
        #expect(token.version == .ecV1)
        #expect(token.transactionIdentifier == (try fixture.paymentData.header.transactionId))
        #expect(token.publicKeyHash == (try fixture.identity.publicKeyHash))
        guard case .threeDSecure(let cryptogram, _) = token.payment.credential else {
            Issue.record("\(fixture.folder) should carry a 3DSecure payload")
            return
        }
        #expect(!cryptogram.isEmpty)
        #expect(token.payment.accountNumber.isLuhnValid)
    }

    @Test("gala-2021 matches every known answer of SOURCES.md")
    func galaKnownAnswers() async throws {
        let fixture = RealTokenFixture.gala
        let token = try await fixture.decryptor().decrypt(json: fixture.json)
        let payment = token.payment
        #expect(payment.accountNumber.digits == "5353756319181169")
        #expect(try payment.expirationDate == EMVDate(year: 2024, month: 9, day: 30))
        #expect(token.payload.applicationExpirationDate == "240930")
        #expect(payment.amount.currency.numericCode == 840)
        #expect(payment.amount.currency.alphabeticCode == "USD")
        #expect(payment.amount.minorUnits == 100)
        #expect(payment.deviceManufacturerIdentifier == "050110030273")
        #expect(payment.dataType == .threeDSecure)
        #expect(
            payment.credential
                == .threeDSecure(
                    onlinePaymentCryptogram: Array(try #require(Data(base64Encoded: "AMwBRjPWDnAgAA7Rls7mAoABFA=="))),
                    eciIndicator: nil))
        #expect(payment.authenticationResponses.isEmpty)
        #expect(payment.merchantTokenIdentifier == nil)
    }

    @Test("gala-2021's merchant id hash, shared secret and symmetric key match SOURCES.md")
    func galaKeyDerivationKnownAnswers() throws {
        let fixture = RealTokenFixture.gala
        let identity = try fixture.identity
        #expect(
            identity.merchantIdentifierHash.hexString
                == "358DA5890B9555C0A9EFB84B5CD6FF04BFDCD5AABF5DC14B9872D8DF51EAF439")
        #expect(identity.publicKeyHash == (try fixture.paymentData.header.publicKeyHash))
        guard case .p256(let privateKey) = identity.privateKey else {
            Issue.record("gala-2021's key is P-256")
            return
        }
        let ephemeralText = try #require(try fixture.paymentData.header.ephemeralPublicKey)
        let ephemeral = try P256.KeyAgreement.PublicKey(derRepresentation: #require(Data(base64Encoded: ephemeralText)))
        let secret = try PaymentDataKeyDerivation.sharedSecret(privateKey: privateKey, publicKey: ephemeral)
        #expect(Data(secret).base64EncodedString() == "yCUzDuNYTnUnANZEdxC7+DvPmqNslB2YWYn68SBsJHU=")
        let key = PaymentDataKeyDerivation.symmetricKey(
            sharedSecret: secret, merchantIdentifierHash: identity.merchantIdentifierHash)
        #expect(
            key.withUnsafeBytes { Data($0) }.base64EncodedString() == "3GTXJ4RuP/IhS23hsdOw2J2ecAZmC0RasbPIFdC3nQM=")
    }

    @Test("sepuka-2019 decrypts to a 3DSecure payload in US dollars")
    func sepukaPayload() async throws {
        let token = try await RealTokenFixture.sepuka.decryptor().decrypt(json: RealTokenFixture.sepuka.json)
        #expect(token.payment.dataType == .threeDSecure)
        #expect(token.payload.paymentDataType == "3DSecure")
        #expect(token.payment.amount.currency.alphabeticCode == "USD")
    }

    @Test("a whole PKPaymentToken decrypts like its paymentData alone")
    func wholeTokenJSON() async throws {
        let fixture = RealTokenFixture.gala
        let whole = PaymentToken(
            paymentData: try fixture.paymentData,
            paymentMethod: PaymentMethodDescription(
                displayName: "MasterCard 1169", network: "MasterCard", type: "debit"),
            transactionIdentifier: try fixture.paymentData.header.transactionId)
        let fromWhole = try await fixture.decryptor().decrypt(json: JSONEncoder().encode(whole))
        let fromBare = try await fixture.decryptor().decrypt(json: fixture.json)
        #expect(fromWhole == fromBare)
    }

    @Test("the real signatures are BER with indefinite lengths, which the verifier accepts")
    func realSignaturesAreBER() throws {
        for fixture in RealTokenFixture.all {
            let signature = try #require(Data(base64Encoded: fixture.paymentData.signature))
            // 30 80: a SEQUENCE of indefinite length, which DER forbids.
            #expect(Array(signature.prefix(2)) == [0x30, 0x80])
            #expect(
                try fixture.decryptor(replayStore: nil).verifySignature(of: fixture.paymentData) == fixture.signingTime)
        }
    }

    @Test("the key is chosen by publicKeyHash among several merchant identities")
    func keyRotation() async throws {
        let gala = try RealTokenFixture.gala.identity
        let sepuka = try RealTokenFixture.sepuka.identity
        for fixture in RealTokenFixture.all {
            let token = try await fixture.decryptor(merchants: [gala, sepuka]).decrypt(json: fixture.json)
            #expect(token.publicKeyHash == (try fixture.identity.publicKeyHash))
        }
    }
}

/// The shared secret keeps its leading zero bytes: a token whose Z starts with 00 decrypts.
@Suite("Apple Pay EC_v1 shared secret width")
struct SharedSecretWidthTests {
    @Test("a token whose ECDH shared secret begins with a zero byte decrypts (the KDF hashes all 32 bytes)")
    func leadingZero() async throws {
        let fixture = RealTokenFixture.gala
        let identity = try fixture.identity
        guard case .p256(let merchantKey) = identity.privateKey else {
            Issue.record("gala-2021's key is P-256")
            return
        }
        // One ephemeral key in 256 gives a Z with a leading zero byte; 4096 tries miss one with odds below 1e-7.
        var found: (P256.KeyAgreement.PrivateKey, [UInt8])?
        for _ in 0..<4096 {
            let ephemeral = P256.KeyAgreement.PrivateKey()
            let secret = try PaymentDataKeyDerivation.sharedSecret(
                privateKey: merchantKey, publicKey: ephemeral.publicKey)
            if secret[0] == 0 {
                found = (ephemeral, secret)
                break
            }
        }
        let (ephemeral, secret) = try #require(found)
        #expect(secret.count == 32)
        let payload = Array(try JSONEncoder().encode(PaymentTokenDecryptorErrorTests.samplePayload))
        let key = PaymentDataKeyDerivation.symmetricKey(
            sharedSecret: secret, merchantIdentifierHash: identity.merchantIdentifierHash)
        var paymentData = try fixture.paymentData
        paymentData.data = Data(try PaymentDataCipher.seal(payload, using: key)).base64EncodedString()
        paymentData.header.ephemeralPublicKey = ephemeral.publicKey.derRepresentation.base64EncodedString()
        let chain = try ThrowawayChain()
        let token = try await chain.decryptor(merchants: [identity], now: fixture.signingTime)
            .decrypt(chain.resign(paymentData, at: fixture.signingTime))
        #expect(token.payload == PaymentTokenDecryptorErrorTests.samplePayload)
        // The key from the 31 bytes a zero-stripping decryptor would hash is another key: the width matters.
        let stripped = PaymentDataKeyDerivation.symmetricKey(
            sharedSecret: secret.dropFirst(), merchantIdentifierHash: identity.merchantIdentifierHash)
        #expect(stripped != key)
    }
}
