import ApplePay
import Crypto
import EMV
import Foundation
import SwiftASN1
import Testing
import X509

@Suite("Token service: tokens in Apple's format")
struct PaymentTokenServiceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var merchant: TestPaymentPKI.MerchantKeyType
        var payload: PaymentPayload.DataType
        var applicationData: Data?
        var testDescription: String {
            "\(merchant) \(payload.rawValue)\(applicationData == nil ? "" : " with applicationData")"
        }
    }

    static let cases: [Case] = TestPaymentPKI.MerchantKeyType.allCases.flatMap { merchant in
        PaymentPayload.DataType.allCases.flatMap { payload in
            [nil, Data(#"{"orderId":"A-1042"}"#.utf8)].map {
                Case(merchant: merchant, payload: payload, applicationData: $0)
            }
        }
    }

    static func request(_ testCase: Case) throws -> TokenRequest {
        TokenRequest(
            merchantIdentifier: TokenServiceFixture.merchantIdentifier,
            amount: Amount(minorUnits: 12_345, currency: try #require(Currency(alphabeticCode: "EUR"))),
            applicationData: testCase.applicationData, payloadKind: testCase.payload
        )
    }

    /// The bytes Apple's signature covers, rebuilt from the token as a verifier would.
    static func signedContent(_ data: PaymentData) throws -> [UInt8] {
        let key = try #require(data.header.ephemeralPublicKey ?? data.header.wrappedKey)
        return Array(try #require(Data(base64Encoded: key))) + Array(try #require(Data(base64Encoded: data.data)))
            + (try #require([UInt8](hex: data.header.transactionId)))
            + (try data.header.applicationData.map { try #require([UInt8](hex: $0)) } ?? [])
    }

    @Test(
        "the header says what Apple's does: version by key, key hash, transaction id, applicationData hash",
        arguments: cases)
    func header(testCase: Case) async throws {
        let merchant = TokenServiceFixture.merchant(testCase.merchant)
        let token = try await TokenServiceFixture.service.token(
            for: try Self.request(testCase), account: TokenServiceFixture.account,
            merchantCertificate: merchant.certificate, cryptogramSource: TokenServiceFixture.cryptogramSource
        )
        let data = token.paymentData
        let header = data.header
        #expect(data.version == (testCase.merchant == .p256 ? "EC_v1" : "RSA_v1"))
        #expect((header.ephemeralPublicKey != nil) == (testCase.merchant == .p256))
        #expect((header.wrappedKey != nil) == (testCase.merchant == .rsa2048))
        // The certificate's SubjectPublicKeyInfo, cut from its DER by swift-asn1 rather than re-encoded.
        var serializer = DER.Serializer()
        try serializer.serialize(merchant.certificate)
        guard case .constructed(let certificateParts) = try DER.parse(serializer.serializedBytes).content,
            case .constructed(let tbs) = try #require(certificateParts.first(where: { _ in true })).content
        else { Issue.record("certificate structure"); return }
        // TBSCertificate: [0] version, serial, signature, issuer, validity, subject, subjectPublicKeyInfo, …
        let spki = Array(tbs)[6].encodedBytes
        #expect(header.publicKeyHash == Data(SHA256.hash(data: spki)).base64EncodedString())
        #expect(header.transactionId.count == 64)
        #expect(header.transactionId == header.transactionId.lowercased())
        #expect(token.transactionIdentifier == header.transactionId)
        #expect(
            header.applicationData
                == testCase.applicationData.map { SHA256.hash(data: $0).map { String(format: "%02x", $0) }.joined() })
        #expect(
            token.paymentMethod == PaymentMethodDescription(displayName: "Visa 0010", network: "Visa", type: "credit"))
        if let ephemeral = header.ephemeralPublicKey {
            // An X.509 SubjectPublicKeyInfo of a P-256 key, as Apple's.
            let key = try P256.KeyAgreement.PublicKey(derRepresentation: try #require(Data(base64Encoded: ephemeral)))
            #expect(key.derRepresentation.count == 91)
        }
        if let wrapped = header.wrappedKey { #expect(Data(base64Encoded: wrapped)?.count == 256) }
        // Ciphertext = payload + 16-byte tag.
        #expect((Data(base64Encoded: data.data)?.count ?? 0) > 16)
    }

    @Test(
        "an independent decryptor (Python cryptography) decrypts every kind to the payload Apple would send",
        .enabled(if: ExternalTool.python != nil), arguments: cases
    )
    func independentDecryption(testCase: Case) async throws {
        let python = try #require(ExternalTool.python)
        let merchant = TokenServiceFixture.merchant(testCase.merchant)
        let token = try await TokenServiceFixture.service.token(
            for: try Self.request(testCase), account: TokenServiceFixture.account,
            merchantCertificate: merchant.certificate, cryptogramSource: TokenServiceFixture.cryptogramSource
        )
        let directory = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokenFile = directory.appendingPathComponent("token.json")
        let certificateFile = directory.appendingPathComponent("certificate.pem")
        let keyFile = directory.appendingPathComponent("key.pem")
        try JSONEncoder().encode(token).write(to: tokenFile)
        try merchant.certificate.serializeAsPEM().pemString.write(
            to: certificateFile, atomically: true, encoding: .utf8)
        try merchant.privateKeyPEM.write(to: keyFile, atomically: true, encoding: .utf8)
        let output = try ExternalTool.run(
            python, [ExternalTool.decryptScript.path, tokenFile.path, certificateFile.path, keyFile.path]
        )
        try #require(output.status == 0, "\(output.standardError)")

        let payload = try #require(try JSONSerialization.jsonObject(with: output.standardOutput) as? [String: Any])
        #expect(payload["applicationPrimaryAccountNumber"] as? String == "4761739001010010")
        #expect(payload["applicationExpirationDate"] as? String == "280229")
        #expect(payload["currencyCode"] as? String == "978")
        #expect(payload["transactionAmount"] as? Int == 12_345)
        #expect(payload["cardholderName"] as? String == "J Appleseed")
        #expect(payload["deviceManufacturerIdentifier"] as? String == "040010030273")
        #expect(payload["paymentDataType"] as? String == testCase.payload.rawValue)
        let details = try #require(payload["paymentData"] as? [String: Any])
        switch testCase.payload {
        case .threeDSecure:
            #expect(details["onlinePaymentCryptogram"] as? String == Data([UInt8](0x01...0x14)).base64EncodedString())
            #expect(details["eciIndicator"] as? String == "7")
            #expect(details["emvData"] == nil)
        case .emv:
            #expect(
                details["emvData"] as? String == Data([0x9F, 0x26, 0x08] + [UInt8](0x21...0x28)).base64EncodedString())
            #expect(details["onlinePaymentCryptogram"] == nil)
        }
    }

    @Test(
        "openssl verifies each token's signature over key ‖ data ‖ transactionId ‖ applicationData to the test root",
        .enabled(if: ExternalTool.openssl != nil), arguments: cases
    )
    func opensslVerifiesTokenSignature(testCase: Case) async throws {
        let token = try await TokenServiceFixture.service.token(
            for: try Self.request(testCase), account: TokenServiceFixture.account,
            merchantCertificate: TokenServiceFixture.merchant(testCase.merchant).certificate,
            cryptogramSource: TokenServiceFixture.cryptogramSource
        )
        let signature = try #require(Data(base64Encoded: token.paymentData.signature))
        let directory = try DetachedSignatureWriterTests.files(
            signature: Array(signature), content: try Self.signedContent(token.paymentData)
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try DetachedSignatureWriterTests.opensslVerify(in: directory, chain: true)
        #expect(output.status == 0, "\(output.standardError)")
    }

    @Test("the cryptogram source is asked for the device account, amount, currency and the token's transaction id")
    func cryptogramRequest() async throws {
        let seen = Seen()
        let token = try await TokenServiceFixture.service.token(
            for: try Self.request(Case(merchant: .p256, payload: .threeDSecure)), account: TokenServiceFixture.account,
            merchantCertificate: TokenServiceFixture.ecMerchant.certificate,
            cryptogramSource: { request in
                await seen.record(request)
                return try await TokenServiceFixture.cryptogramSource(request)
            }
        )
        let request = try #require(await seen.requests.first)
        #expect(await seen.requests.count == 1)
        #expect(request.accountNumber == TokenServiceFixture.account.accountNumber)
        #expect(request.expiry == TokenServiceFixture.account.expiry)
        #expect(request.amount.minorUnits == 12_345)
        #expect(request.amount.currency.alphabeticCode == "EUR")
        #expect(request.transactionIdentifier.hexString.lowercased() == token.paymentData.header.transactionId)
        #expect(request.date == TokenServiceFixture.signingTime)
        #expect(request.merchantIdentifier == TokenServiceFixture.merchantIdentifier)
        #expect(request.payloadKind == .threeDSecure)
    }

    @Test("a fresh ephemeral key and transaction id for each token")
    func freshPerToken() async throws {
        let request = try Self.request(Case(merchant: .p256, payload: .threeDSecure))
        var keys = Set<String>(), ids = Set<String>()
        for _ in 0..<3 {
            let token = try await TokenServiceFixture.service.token(
                for: request, account: TokenServiceFixture.account,
                merchantCertificate: TokenServiceFixture.ecMerchant.certificate,
                cryptogramSource: TokenServiceFixture.cryptogramSource
            )
            keys.insert(try #require(token.paymentData.header.ephemeralPublicKey))
            ids.insert(token.paymentData.header.transactionId)
        }
        #expect(keys.count == 3 && ids.count == 3)
    }

    @Test("another merchant's certificate is refused")
    func merchantMismatch() async throws {
        var request = try Self.request(Case(merchant: .p256, payload: .threeDSecure))
        request.merchantIdentifier = "merchant.com.example.other"
        await #expect(throws: TokenServiceError.merchantMismatch) {
            try await TokenServiceFixture.service.token(
                for: request, account: TokenServiceFixture.account,
                merchantCertificate: TokenServiceFixture.ecMerchant.certificate,
                cryptogramSource: TokenServiceFixture.cryptogramSource
            )
        }
    }

    @Test("a certificate without the merchant identifier extension is refused")
    func notAMerchantCertificate() async throws {
        await #expect(throws: TokenServiceError.merchantCertificateInvalid) {
            try await TokenServiceFixture.service.token(
                for: try Self.request(Case(merchant: .p256, payload: .threeDSecure)),
                account: TokenServiceFixture.account, merchantCertificate: TokenServiceFixture.pki.leaf,
                cryptogramSource: TokenServiceFixture.cryptogramSource
            )
        }
    }

    @Test("a cryptogram of the other kind is refused", arguments: PaymentPayload.DataType.allCases)
    func cryptogramMismatch(kind: PaymentPayload.DataType) async throws {
        await #expect(throws: TokenServiceError.cryptogramMismatch) {
            try await TokenServiceFixture.service.token(
                for: try Self.request(Case(merchant: .p256, payload: kind)), account: TokenServiceFixture.account,
                merchantCertificate: TokenServiceFixture.ecMerchant.certificate,
                cryptogramSource: { _ in
                    kind == .emv
                        ? .threeDSecure(onlinePaymentCryptogram: [1, 2, 3], eciIndicator: nil)
                        : .emv(emvData: [1, 2, 3], encryptedPINData: nil)
                }
            )
        }
    }

    @Test("the simulated device pays with its first card, and refuses with none")
    func simulatedDevice() async throws {
        let device = SimulatedDevice(
            accounts: [TokenServiceFixture.account], tokenService: TokenServiceFixture.service,
            cryptogramSource: TokenServiceFixture.cryptogramSource
        )
        let request = try Self.request(Case(merchant: .rsa2048, payload: .emv))
        let token = try await device.authorize(
            request, merchantCertificate: TokenServiceFixture.rsaMerchant.certificate)
        #expect(token.paymentData.version == "RSA_v1")
        #expect(token.paymentMethod?.displayName == "Visa 0010")
        let empty = SimulatedDevice(
            accounts: [], tokenService: TokenServiceFixture.service,
            cryptogramSource: TokenServiceFixture.cryptogramSource
        )
        await #expect(throws: TokenServiceError.noAccount) {
            try await empty.authorize(request, merchantCertificate: TokenServiceFixture.rsaMerchant.certificate)
        }
    }

    @Test("descriptions and errors show no account number or cryptogram")
    func nothingSensitiveInDescriptions() async throws {
        let account = TokenServiceFixture.account
        let cryptogram = DeviceCryptogram.threeDSecure(
            onlinePaymentCryptogram: [0xAB, 0xCD, 0xEF, 0x12], eciIndicator: "5")
        let request = CryptogramRequest(
            accountNumber: account.accountNumber, expiry: account.expiry,
            amount: Amount(minorUnits: 1, currency: try #require(Currency(alphabeticCode: "USD"))),
            transactionIdentifier: [1, 2, 3], date: TokenServiceFixture.signingTime,
            merchantIdentifier: TokenServiceFixture.merchantIdentifier, payloadKind: .threeDSecure
        )
        func dumped(_ value: Any) -> String {
            var text = ""
            dump(value, to: &text)
            return text
        }
        let texts = [
            "\(account)", String(reflecting: account), "\(request)", String(reflecting: request), "\(cryptogram)",
            String(reflecting: cryptogram), dumped(account), dumped(request), dumped(cryptogram),
        ]
        for text in texts {
            #expect(!text.contains("4761739001010010"), "\(text)")
            #expect(!text.contains("90010100"), "\(text)")
            #expect(!text.localizedCaseInsensitiveContains("abcdef12"), "\(text)")
            #expect(!text.contains("q83vEg"), "\(text)")  // base64 of the cryptogram
        }
    }
}

/// What a cryptogram closure was asked, across its concurrent calls.
private actor Seen {
    var requests: [CryptogramRequest] = []
    func record(_ request: CryptogramRequest) { requests.append(request) }
}
