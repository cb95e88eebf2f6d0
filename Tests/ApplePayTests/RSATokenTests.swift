import ApplePay
import Crypto
import EMV
import Foundation
import SwiftASN1
import Testing
import X509
import _CryptoExtras

/// RSA_v1 (AES-128-GCM under a key wrapped with RSA-OAEP-SHA256): no real RSA_v1 token is public, so these are
/// made here with a throwaway RSA merchant certificate and signed by a throwaway chain.
@Suite("Apple Pay RSA_v1 tokens")
struct RSATokenTests {
    static func rsaIdentity() throws -> MerchantIdentity {
        let key = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
        let issuerKey = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("Throwaway RSA merchant") }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(
                _RSA.Signing.PublicKey(derRepresentation: key.publicKey.derRepresentation)),
            notValidBefore: Date(timeIntervalSince1970: 0), notValidAfter: Date(timeIntervalSince1970: 4_000_000_000),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: Certificate.Extensions(),
            issuerPrivateKey: Certificate.PrivateKey(issuerKey))
        return try MerchantIdentity(certificate: certificate, privateKey: .rsa(key), merchantIdentifier: "merchant.rsa")
    }

    /// An RSA_v1 `paymentData` carrying `payload` for `identity`, signed by `chain` at `time`.
    static func token(
        _ payload: [UInt8], for identity: MerchantIdentity, chain: ThrowawayChain, at time: Date,
        wrappedKeyLength: Int = 16
    ) throws -> PaymentData {
        guard case .rsa(let privateKey) = identity.privateKey else { throw CryptoKitError.incorrectKeySize }
        let key = SymmetricKey(size: SymmetricKeySize(bitCount: wrappedKeyLength * 8))
        let wrapped = try privateKey.publicKey.encrypt(key.withUnsafeBytes { Data($0) }, padding: .PKCS1_OAEP_SHA256)
        let paymentData = PaymentData(
            version: "RSA_v1", data: Data(try PaymentDataCipher.seal(payload, using: key)).base64EncodedString(),
            signature: "",
            header: .init(
                wrappedKey: wrapped.base64EncodedString(), publicKeyHash: identity.publicKeyHash,
                transactionId: Array(SHA256.hash(data: payload)).hexString))
        return try chain.resign(paymentData, at: time)
    }

    @Test("an RSA_v1 token decrypts with AES-128-GCM under the unwrapped key")
    func decrypts() async throws {
        let identity = try Self.rsaIdentity()
        let chain = try ThrowawayChain()
        let time = RealTokenFixture.gala.signingTime
        let payload = PaymentTokenDecryptorErrorTests.samplePayload
        let paymentData = try Self.token(Array(JSONEncoder().encode(payload)), for: identity, chain: chain, at: time)
        let token = try await chain.decryptor(merchants: [identity], now: time).decrypt(paymentData)
        #expect(token.version == .rsaV1)
        #expect(token.payload == payload)
    }

    @Test("an RSA_v1 token for an EC merchant key, or a wrappedKey for another RSA key, is decryptionFailed")
    func wrongKeys() async throws {
        let identity = try Self.rsaIdentity()
        let other = try Self.rsaIdentity()
        let chain = try ThrowawayChain()
        let time = RealTokenFixture.gala.signingTime
        let payload = Array(try JSONEncoder().encode(PaymentTokenDecryptorErrorTests.samplePayload))
        // Wrapped to `other`, but naming `identity`'s publicKeyHash.
        var crossed = try Self.token(payload, for: other, chain: chain, at: time)
        crossed.header.publicKeyHash = identity.publicKeyHash
        crossed = try chain.resign(crossed, at: time)
        await #expect(throws: ApplePayError.decryptionFailed) {
            _ = try await chain.decryptor(merchants: [identity], now: time).decrypt(crossed)
        }
        // An RSA_v1 token naming an EC key.
        let gala = try RealTokenFixture.gala.identity
        var mismatched = try Self.token(payload, for: identity, chain: chain, at: time)
        mismatched.header.publicKeyHash = gala.publicKeyHash
        mismatched = try chain.resign(mismatched, at: time)
        await #expect(throws: ApplePayError.decryptionFailed) {
            _ = try await chain.decryptor(merchants: [gala], now: time).decrypt(mismatched)
        }
    }
}
