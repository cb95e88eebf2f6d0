import Crypto
import EMV
import Foundation
import _CryptoExtras

extension PaymentTokenService {
    /// Encrypts `payload` to `recipient` (EC_v1 or RSA_v1 by its key) and signs the result: Apple's `paymentData`.
    func sealedPaymentData(
        payload: Data, recipient: MerchantRecipient, transactionIdentifier: [UInt8], applicationData: Data?,
        signingTime: Date
    ) throws -> PaymentData {
        let version: PaymentData.Version
        let keyMaterial: [UInt8]
        let ciphertext: [UInt8]
        switch recipient.key {
        case .ec(let merchantKey):
            version = .ecV1
            let ephemeral = P256.KeyAgreement.PrivateKey()
            let key = PaymentDataKeyDerivation.symmetricKey(
                sharedSecret: try PaymentDataKeyDerivation.sharedSecret(privateKey: ephemeral, publicKey: merchantKey),
                merchantIdentifierHash: recipient.merchantIdentifierHash
            )
            keyMaterial = Array(ephemeral.publicKey.derRepresentation)
            ciphertext = try PaymentDataCipher.seal(payload, using: key)
        case .rsa(let merchantKey):
            version = .rsaV1
            let key = SymmetricKey(size: .bits128)
            keyMaterial = Array(try key.withUnsafeBytes { try merchantKey.encrypt($0, padding: .PKCS1_OAEP_SHA256) })
            ciphertext = try PaymentDataCipher.seal(payload, using: key)
        }
        let applicationDataHash = applicationData.map { Array(SHA256.hash(data: $0)) }
        // Apple signs the decoded bytes of these header values and `data`, in this order.
        let signedContent = keyMaterial + ciphertext + transactionIdentifier + (applicationDataHash ?? [])
        let signature = try pki.signatureWriter.signature(over: signedContent, signingTime: signingTime)
        let keyBase64 = Data(keyMaterial).base64EncodedString()
        return PaymentData(
            version: version.rawValue,
            data: Data(ciphertext).base64EncodedString(),
            signature: Data(signature).base64EncodedString(),
            header: PaymentData.Header(
                ephemeralPublicKey: version == .ecV1 ? keyBase64 : nil,
                wrappedKey: version == .rsaV1 ? keyBase64 : nil,
                publicKeyHash: Data(recipient.publicKeyHash).base64EncodedString(),
                transactionId: transactionIdentifier.hexString.lowercased(),
                applicationData: applicationDataHash?.hexString.lowercased()
            )
        )
    }
}
