import ApplePay
import Crypto
import EMV
import Foundation
import Testing

/// One test per ``ApplePayError`` code the decryptor raises, each by mutating a real token (or re-signing its
/// fields with a throwaway chain where the failure needs a signature Apple would never make).
@Suite("Apple Pay token verification errors")
struct PaymentTokenDecryptorErrorTests {
    let fixture = RealTokenFixture.gala

    private func decrypt(
        _ paymentData: PaymentData, offset: TimeInterval = 0, applicationData: [UInt8]? = nil
    ) async throws {
        _ = try await fixture.decryptor(offset: offset).decrypt(paymentData, applicationData: applicationData)
    }

    /// The signature's BER bytes with `transform` applied, back in base64.
    private func withSignatureBytes(_ transform: (inout [UInt8]) throws -> Void) throws -> PaymentData {
        var paymentData = try fixture.paymentData
        var bytes = Array(try #require(Data(base64Encoded: paymentData.signature)))
        try transform(&bytes)
        paymentData.signature = Data(bytes).base64EncodedString()
        return paymentData
    }

    @Test("garbage JSON, a non-base64 data field and a non-hex transactionId are tokenMalformed")
    func tokenMalformed() async throws {
        await #expect(throws: ApplePayError.tokenMalformed) {
            _ = try await fixture.decryptor().decrypt(json: Array("{\"version\": 1".utf8))
        }
        var notBase64 = try fixture.paymentData
        notBase64.data = "not base64!"
        await #expect(throws: ApplePayError.tokenMalformed) { try await decrypt(notBase64) }
        var notHex = try fixture.paymentData
        notHex.header.transactionId = "xyz"
        await #expect(throws: ApplePayError.tokenMalformed) { try await decrypt(notHex) }
    }

    @Test("an unknown version, or EC_v1 without its ephemeral key, is unsupportedVersion")
    func unsupportedVersion() async throws {
        var version = try fixture.paymentData
        version.version = "EC_v2"
        await #expect(throws: ApplePayError.unsupportedVersion) { try await decrypt(version) }
        var noKey = try fixture.paymentData
        noKey.header.ephemeralPublicKey = nil
        await #expect(throws: ApplePayError.unsupportedVersion) { try await decrypt(noKey) }
    }

    @Test("garbage, truncated and non-CMS signatures are signatureMalformed")
    func signatureMalformed() async throws {
        let truncated = try withSignatureBytes { $0 = Array($0.prefix($0.count / 2)) }
        let garbage = try withSignatureBytes { $0 = Array("hello, this is not BER".utf8) }
        let trailing = try withSignatureBytes { $0 += [0x00, 0x01] }
        let wrongType = try withSignatureBytes { bytes in
            // ContentInfo's OID ends in …07 02 (signedData); …07 03 is envelopedData.
            let index = try #require(bytes.firstIndex(of: 0x07).map { $0 + 1 })
            #expect(bytes[index] == 0x02)
            bytes[index] = 0x03
        }
        for paymentData in [truncated, garbage, trailing, wrongType] {
            await #expect(throws: ApplePayError.signatureMalformed) { try await decrypt(paymentData) }
        }
    }

    @Test("a flipped bit in data, transactionId or key, or an added applicationData, is messageDigestMismatch")
    func messageDigestMismatch() async throws {
        let original = try fixture.paymentData
        var data = Array(try #require(Data(base64Encoded: original.data)))
        data[10] ^= 0x01
        var flippedData = original
        flippedData.data = Data(data).base64EncodedString()
        var flippedId = original
        var id = try #require([UInt8](hex: original.header.transactionId))
        id[0] ^= 0x80
        flippedId.header.transactionId = id.hexString
        let keyText = try #require(original.header.ephemeralPublicKey)
        var key = Array(try #require(Data(base64Encoded: keyText)))
        key[key.count - 1] ^= 0x01
        var flippedKey = original
        flippedKey.header.ephemeralPublicKey = Data(key).base64EncodedString()
        var added = original
        added.header.applicationData = Array(SHA256.hash(data: [1, 2, 3])).hexString
        for paymentData in [flippedData, flippedId, flippedKey, added] {
            await #expect(throws: ApplePayError.messageDigestMismatch) { try await decrypt(paymentData) }
        }
    }

    @Test("a changed signed attribute or a flipped bit in the ECDSA signature is signatureInvalid")
    func signatureInvalid() async throws {
        let alteredTime = try withSignatureBytes { bytes in
            // "210901190306Z" → "210901190307Z": the signed attributes change, their signature does not.
            let time = Array("210901190306Z".utf8)
            let start = try #require(bytes.indices.first { Array(bytes[$0...].prefix(time.count)) == time })
            bytes[start + 11] = UInt8(ascii: "7")
        }
        let flippedSignature = try withSignatureBytes { bytes in
            // The signature OCTET STRING (04 48 30 46 02 21 …) ends the SignerInfo; flip a bit of r.
            let marker: [UInt8] = [0x04, 0x48, 0x30, 0x46, 0x02, 0x21]
            let start = try #require(bytes.indices.last { Array(bytes[$0...].prefix(marker.count)) == marker })
            bytes[start + 10] ^= 0x01
        }
        for paymentData in [alteredTime, flippedSignature] {
            await #expect(throws: ApplePayError.signatureInvalid) { try await decrypt(paymentData) }
        }
    }

    @Test("a signature without a signingTime attribute is signingTimeMissing")
    func signingTimeMissing() async throws {
        let paymentData = try withSignatureBytes { bytes in
            // The attribute type 1.2.840.113549.1.9.5 (signingTime) becomes …9.7, an attribute the verifier ignores.
            let oid: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x05]
            let start = try #require(bytes.indices.first { Array(bytes[$0...].prefix(oid.count)) == oid })
            bytes[start + oid.count - 1] = 0x07
        }
        await #expect(throws: ApplePayError.signingTimeMissing) { try await decrypt(paymentData) }
    }

    @Test("a signing time more than the window before or after the clock is tokenExpired", arguments: [-301.0, 301.0])
    func tokenExpired(offset: TimeInterval) async throws {
        await #expect(throws: ApplePayError.tokenExpired) { try await decrypt(fixture.paymentData, offset: offset) }
    }

    @Test("the window's edges are accepted", arguments: [-300.0, 300.0])
    func windowEdges(offset: TimeInterval) async throws {
        try await decrypt(fixture.paymentData, offset: offset)
    }

    @Test("the same token twice is tokenReplayed, also with its transactionId in upper case")
    func tokenReplayed() async throws {
        let decryptor = try fixture.decryptor()
        _ = try await decryptor.decrypt(json: fixture.json)
        await #expect(throws: ApplePayError.tokenReplayed) { _ = try await decryptor.decrypt(json: fixture.json) }
        let store = InMemoryTransactionReplayStore(now: { fixture.signingTime })
        try await store.record(transactionId: "ABCDEF", expiresAt: fixture.signingTime.addingTimeInterval(300))
        await #expect(throws: ApplePayError.tokenReplayed) {
            try await store.record(transactionId: "abcdef", expiresAt: fixture.signingTime.addingTimeInterval(300))
        }
    }

    @Test("decryptWithoutReplayCheck verifies and decrypts like decrypt but records nothing")
    func withoutReplayCheck() async throws {
        let decryptor = try fixture.decryptor()
        let paymentData = try fixture.paymentData
        let first = try decryptor.decryptWithoutReplayCheck(paymentData)
        let again = try decryptor.decryptWithoutReplayCheck(paymentData)
        #expect(first.transactionIdentifier == again.transactionIdentifier)
        // Nothing was recorded: the replay-checked path still takes the token once, then refuses it.
        let checked = try await decryptor.decrypt(paymentData)
        #expect(checked.payment.accountNumber.lastFour == first.payment.accountNumber.lastFour)
        await #expect(throws: ApplePayError.tokenReplayed) { _ = try await decryptor.decrypt(paymentData) }
        var tampered = paymentData
        tampered.data = String(tampered.data.reversed())
        #expect(throws: ApplePayError.self) { _ = try decryptor.decryptWithoutReplayCheck(tampered) }
    }

    @Test("a token refused for another reason does not burn its transactionId")
    func refusedTokenNotRecorded() async throws {
        let decryptor = try fixture.decryptor(merchants: [RealTokenFixture.sepuka.identity])
        await #expect(throws: ApplePayError.unknownPublicKeyHash) {
            _ = try await decryptor.decrypt(json: fixture.json)
        }
        // The same store, now with the right key: the earlier refusal left no trace.
        let fixed = PaymentTokenDecryptor(
            merchants: [try fixture.identity], replayStore: decryptor.replayStore, now: { fixture.signingTime })
        _ = try await fixed.decrypt(json: fixture.json)
    }

    @Test("a token for a key the decryptor does not hold is unknownPublicKeyHash")
    func unknownPublicKeyHash() async throws {
        let decryptor = try fixture.decryptor(merchants: [RealTokenFixture.sepuka.identity])
        await #expect(throws: ApplePayError.unknownPublicKeyHash) {
            _ = try await decryptor.decrypt(json: fixture.json)
        }
    }

    @Test("a certificate with another certificate's key, or without a merchant identifier, is merchantIdentityInvalid")
    func merchantIdentityInvalid() throws {
        let gala = try fixture.identity
        let sepuka = try RealTokenFixture.sepuka.identity
        #expect(throws: ApplePayError.merchantIdentityInvalid) {
            _ = try MerchantIdentity(certificate: gala.certificate, privateKey: sepuka.privateKey)
        }
        #expect(throws: ApplePayError.merchantIdentityInvalid) {
            _ = try MerchantIdentity(certificatePEM: "not a certificate", privateKeyPEM: "nor a key")
        }
        let key = P256.KeyAgreement.PrivateKey()
        #expect(throws: ApplePayError.merchantIdentityInvalid) {
            _ = try MerchantIdentity(certificate: gala.certificate, privateKey: .p256(key))
        }
    }

    @Test("the right key with the wrong merchant identifier is decryptionFailed")
    func decryptionFailed() async throws {
        let gala = try fixture.identity
        let wrongMerchant = try MerchantIdentity(
            certificate: gala.certificate, privateKey: gala.privateKey, merchantIdentifier: "merchant.com.example.other"
        )
        let decryptor = try fixture.decryptor(merchants: [wrongMerchant])
        await #expect(throws: ApplePayError.decryptionFailed) { _ = try await decryptor.decrypt(json: fixture.json) }
    }

    @Test("application data supplied for a token without its hash, or not matching it, is applicationDataMismatch")
    func applicationDataMismatch() async throws {
        await #expect(throws: ApplePayError.applicationDataMismatch) {
            try await decrypt(fixture.paymentData, applicationData: Array("order-1".utf8))
        }
        // A token whose header carries SHA-256("order-1"), re-signed by a throwaway chain.
        let chain = try ThrowawayChain()
        let identity = try fixture.identity
        let payload = try JSONEncoder().encode(Self.samplePayload)
        let encrypted = try encrypt(
            Array(payload), to: identity, like: fixture.paymentData, applicationData: Array("order-1".utf8))
        let signed = try chain.resign(encrypted, at: fixture.signingTime)
        let decryptor = chain.decryptor(merchants: [identity], now: fixture.signingTime)
        await #expect(throws: ApplePayError.applicationDataMismatch) {
            _ = try await decryptor.decrypt(signed, applicationData: Array("order-2".utf8))
        }
        let token = try await decryptor.decrypt(signed, applicationData: Array("order-1".utf8))
        #expect(token.payment.amount.minorUnits == Self.samplePayload.transactionAmount)
    }

    @Test("a well-signed token whose decrypted payload is not Apple's JSON is payloadMalformed")
    func payloadMalformed() async throws {
        let chain = try ThrowawayChain()
        let identity = try fixture.identity
        let decryptor = chain.decryptor(merchants: [identity], now: fixture.signingTime)
        var badExpiry = Self.samplePayload
        badExpiry.applicationExpirationDate = "241331"
        for payload in [Array("not json".utf8), Array(try JSONEncoder().encode(badExpiry))] {
            let signed = try chain.resign(
                encrypt(payload, to: identity, like: fixture.paymentData), at: fixture.signingTime)
            await #expect(throws: ApplePayError.payloadMalformed) { _ = try await decryptor.decrypt(signed) }
        }
    }

    @Test("a real token checked against a root that is not Apple's is untrustedRoot")
    func untrustedRoot() async throws {
        let decryptor = PaymentTokenDecryptor(
            merchants: [try fixture.identity], trustedRoots: [try ThrowawayChain().root],
            now: { fixture.signingTime })
        await #expect(throws: ApplePayError.untrustedRoot) { _ = try await decryptor.decrypt(json: fixture.json) }
    }

    @Test("chains without a marker, or whose leaf another key signed, fail with their own codes")
    func chainFailures() async throws {
        let identity = try fixture.identity
        let cases: [(ThrowawayChain, ApplePayError)] = [
            (try ThrowawayChain(leafMarker: false), .leafMarkerMissing),
            (try ThrowawayChain(intermediateMarker: false), .intermediateMarkerMissing),
            (try ThrowawayChain(leafSignedByStranger: true), .chainInvalid),
            (
                try ThrowawayChain(
                    leafValidity: fixture.signingTime.addingTimeInterval(
                        -86_400)...fixture.signingTime
                        .addingTimeInterval(-3_600)),
                .certificateNotValidAtSigningTime
            ),
        ]
        for (chain, expected) in cases {
            let signed = try chain.resign(fixture.paymentData, at: fixture.signingTime)
            let decryptor = chain.decryptor(merchants: [identity], now: fixture.signingTime)
            await #expect(throws: expected) { _ = try await decryptor.decrypt(signed) }
        }
        // The same throwaway chain with nothing broken passes: the failures above are the properties alone.
        let good = try ThrowawayChain()
        let token = try await good.decryptor(merchants: [identity], now: fixture.signingTime)
            .decrypt(good.resign(fixture.paymentData, at: fixture.signingTime))
        #expect(token.payment.amount.minorUnits == 100)
    }

    static let samplePayload = PaymentPayload(
        applicationPrimaryAccountNumber: "4761739001010119", applicationExpirationDate: "291231", currencyCode: "978",
        transactionAmount: 1234, deviceManufacturerIdentifier: "040010030273", paymentDataType: "3DSecure",
        paymentData: .init(onlinePaymentCryptogram: "AAECAwQFBgcICQoLDA0ODxAREhM=", eciIndicator: "7"))
}
