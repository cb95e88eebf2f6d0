public import Crypto
import Foundation

/// The reader side: seals card data to the PSP's public key.
///
/// Each call uses a fresh HPKE context (a new ephemeral key), so two seals of the same payload share nothing.
public struct CardDataSealer: Sendable {
    /// The HPKE ciphersuite of every sealed card data: P-256, HKDF-SHA256, AES-256-GCM.
    public static let ciphersuite = HPKE.Ciphersuite.P256_SHA256_AES_GCM_256

    /// The PSP's public key.
    public let publicKey: P256.KeyAgreement.PublicKey
    /// The id of the PSP's key, written into the sealed data.
    public let keyId: String

    /// Creates a sealer for the PSP key `publicKey` named `keyId`.
    public init(publicKey: P256.KeyAgreement.PublicKey, keyId: String) {
        self.publicKey = publicKey
        self.keyId = keyId
    }

    /// Seals `payload`.
    ///
    /// - Throws: ``GatewayAPIError/Code/cardDataInvalid`` if the payload cannot be encoded or HPKE fails (neither
    ///   happens with a valid key); the message carries no card data.
    public func seal(_ payload: CardDataPayload) throws(GatewayAPIError) -> SealedCardData {
        let aad = SealedCardData.authenticatedData(
            keyId: keyId, readId: payload.readId, deviceId: payload.deviceId, merchantId: payload.merchantId)
        do {
            let plaintext = try JSONEncoder.cardData.encode(payload)
            var sender = try HPKE.Sender(
                recipientKey: publicKey, ciphersuite: Self.ciphersuite, info: Data(SealedCardData.protocolInfo.utf8))
            let ciphertext = try sender.seal(plaintext, authenticating: aad)
            return SealedCardData(
                keyId: keyId, readId: payload.readId, deviceId: payload.deviceId, merchantId: payload.merchantId,
                encapsulatedKey: sender.encapsulatedKey, ciphertext: ciphertext)
        } catch {
            throw GatewayAPIError(code: .cardDataInvalid, message: "the card data could not be sealed")
        }
    }
}
