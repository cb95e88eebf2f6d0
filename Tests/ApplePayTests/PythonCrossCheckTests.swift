import ApplePay
import Crypto
import EMV
import Foundation
import Testing

/// Decrypts the real tokens with `scripts/applepay-decrypt.py --details` (PyPI `cryptography`, written apart from
/// the Swift code) and compares every intermediate value. Runs when a Python with `cryptography` is found: the project's
/// `.venv` (scripts/test makes it) or `APPLEPAY_CROSSCHECK_PYTHON`.
@Suite("Apple Pay decryption against Python cryptography")
struct PythonCrossCheckTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let python: String? = {
        let candidates: [String?] = [
            ProcessInfo.processInfo.environment["APPLEPAY_CROSSCHECK_PYTHON"],
            packageRoot.appendingPathComponent(".venv/bin/python").path,
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    struct Answer: Decodable {
        let merchantIdentifierHash: String
        let publicKeyHash: String
        let sharedSecret: String
        let symmetricKey: String
        let payload: String
    }

    @Test(
        "the Swift and Python decryptions agree on every value", .enabled(if: python != nil),
        arguments: RealTokenFixture.all)
    func agrees(fixture: RealTokenFixture) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.python))
        process.arguments = [
            Self.packageRoot.appendingPathComponent("scripts/applepay-decrypt.py").path, "--details",
            try fixture.url("token", "json").path, try fixture.url("certificate", "pem").path,
            try fixture.url("private_key", "pem").path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let answer = try JSONDecoder().decode(Answer.self, from: data)

        let identity = try fixture.identity
        #expect(identity.merchantIdentifierHash.hexString == answer.merchantIdentifierHash)
        #expect(identity.publicKeyHash == answer.publicKeyHash)
        guard case .p256(let privateKey) = identity.privateKey else {
            Issue.record("the fixtures' keys are P-256")
            return
        }
        let ephemeralText = try #require(try fixture.paymentData.header.ephemeralPublicKey)
        let ephemeral = try P256.KeyAgreement.PublicKey(derRepresentation: #require(Data(base64Encoded: ephemeralText)))
        let secret = try PaymentDataKeyDerivation.sharedSecret(privateKey: privateKey, publicKey: ephemeral)
        #expect(Data(secret).base64EncodedString() == answer.sharedSecret)
        let key = PaymentDataKeyDerivation.symmetricKey(
            sharedSecret: secret, merchantIdentifierHash: identity.merchantIdentifierHash)
        #expect(key.withUnsafeBytes { Data($0) }.base64EncodedString() == answer.symmetricKey)
        let token = try await fixture.decryptor().decrypt(json: fixture.json)
        let python = try JSONDecoder().decode(PaymentPayload.self, from: Data(answer.payload.utf8))
        #expect(token.payload == python)
    }
}
