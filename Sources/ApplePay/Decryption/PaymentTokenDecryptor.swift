public import Foundation
import Crypto
import _CryptoExtras
import EMV
public import X509

/// Verifies and decrypts Apple Pay payment tokens on a server: every check Apple's "Payment token format
/// reference" asks for, each failure its own ``ApplePayError``.
///
/// In order: the JSON and its encodings; the detached CMS signature (BER; the messageDigest over the header
/// fields and data, the signer's signature over the DER of the signed attributes); Apple's marker extensions on
/// the leaf and intermediate; the chain to a configured root (Apple Root CA - G3 unless told otherwise); each
/// certificate's validity at the signing time; the signing time within ``signingTimeWindow`` of the clock; the
/// merchant key by publicKeyHash; the applicationData hash when the caller gives the data; decryption (EC_v1 or
/// RSA_v1) and the payload's format; and last, once all else passed, the transactionId in the replay store —
/// so a token refused for a fixable reason (an unconfigured key) can be submitted again.
public struct PaymentTokenDecryptor: Sendable {
    /// The merchant keys, any of which a token may name.
    public let merchants: [MerchantIdentity]
    /// The roots a signing chain may end at.
    public let trustedRoots: [Certificate]
    /// How far the signing time may lie from the clock, before or after (default 5 minutes).
    public let signingTimeWindow: TimeInterval
    /// Where transactionIds are remembered.
    public let replayStore: any TransactionReplayStore
    private let now: @Sendable () -> Date
    private let chains: CertificateChainVerifier

    /// A decryptor.
    ///
    /// - Parameters:
    ///   - merchants: the payment processing identities tokens may be encrypted to (several while rotating).
    ///   - trustedRoots: the roots to accept; Apple Root CA - G3 by default. Test roots only when configured.
    ///   - signingTimeWindow: the accepted distance between the signing time and `now()`, in seconds.
    ///   - replayStore: the transactionId store; nil for a new ``InMemoryTransactionReplayStore`` on `now`.
    ///   - now: the clock.
    public init(
        merchants: [MerchantIdentity], trustedRoots: [Certificate] = [AppleRootCA.g3],
        signingTimeWindow: TimeInterval = 300,
        replayStore: (any TransactionReplayStore)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.merchants = merchants
        self.trustedRoots = trustedRoots
        self.signingTimeWindow = signingTimeWindow
        self.replayStore = replayStore ?? InMemoryTransactionReplayStore(now: now)
        self.now = now
        self.chains = CertificateChainVerifier(roots: trustedRoots)
    }

    /// Verifies and decrypts token JSON: a whole `PKPaymentToken` (with `paymentData`) or the `paymentData` alone.
    ///
    /// - Parameter applicationData: the request's applicationData, when the caller has it: its SHA-256 must
    ///   match the header's.
    public func decrypt(json: some DataProtocol, applicationData: [UInt8]? = nil) async throws -> VerifiedPaymentToken {
        let data = Data(json)
        let decoder = JSONDecoder()
        let paymentData: PaymentData
        if let token = try? decoder.decode(PaymentToken.self, from: data) {
            paymentData = token.paymentData
        } else if let bare = try? decoder.decode(PaymentData.self, from: data) {
            paymentData = bare
        } else {
            throw ApplePayError(
                code: .tokenMalformed, message: "the JSON is neither a payment token nor its paymentData")
        }
        return try await decrypt(paymentData, applicationData: applicationData)
    }

    /// Verifies and decrypts a whole token.
    public func decrypt(_ token: PaymentToken, applicationData: [UInt8]? = nil) async throws -> VerifiedPaymentToken {
        try await decrypt(token.paymentData, applicationData: applicationData)
    }

    /// Verifies and decrypts a token's `paymentData`, then records its transaction id in the replay store.
    public func decrypt(_ paymentData: PaymentData, applicationData: [UInt8]? = nil) async throws
        -> VerifiedPaymentToken
    {
        let verified = try decryptWithoutReplayCheck(paymentData, applicationData: applicationData)
        try await replayStore.record(
            transactionId: paymentData.header.transactionId,
            expiresAt: verified.signingTime.addingTimeInterval(signingTimeWindow))
        return verified
    }

    /// Verifies and decrypts a token's `paymentData` like ``decrypt(_:applicationData:)-(PaymentData,_)`` but does not
    /// record its transaction id, so the same token is accepted again: for callers that keep their own replay record
    /// in the same transaction as the payment, and for benchmarks. Synchronous: no suspension point.
    public func decryptWithoutReplayCheck(_ paymentData: PaymentData, applicationData: [UInt8]? = nil) throws
        -> VerifiedPaymentToken
    {
        let fields = try TokenFields(paymentData)
        let signingTime = try verifySignature(fields)
        guard let merchant = merchants.first(where: { $0.publicKeyHash == paymentData.header.publicKeyHash }) else {
            throw ApplePayError(code: .unknownPublicKeyHash, message: "no merchant key has the token's publicKeyHash")
        }
        try Self.checkApplicationData(header: fields.applicationDataHash, supplied: applicationData)
        let plaintext = try Self.decrypt(fields, with: merchant)
        let payload: PaymentPayload
        do {
            payload = try JSONDecoder().decode(PaymentPayload.self, from: Data(plaintext))
        } catch let error as DecodingError {
            throw ApplePayError(
                code: .payloadMalformed,
                message: "the decrypted payload is not Apple's payment data JSON (at \(Self.codingPath(of: error)))")
        }
        let payment = try DecryptedPayment(payload: payload)
        return VerifiedPaymentToken(
            payment: payment, payload: payload, version: fields.version,
            transactionIdentifier: paymentData.header.transactionId, signingTime: signingTime,
            publicKeyHash: paymentData.header.publicKeyHash)
    }

    /// Checks the signature, chain and signing time of a token's `paymentData` without decrypting it or
    /// recording it, returning the signing time.
    public func verifySignature(of paymentData: PaymentData) throws -> Date {
        try verifySignature(TokenFields(paymentData))
    }

    private func verifySignature(_ fields: TokenFields) throws -> Date {
        let signature = try PaymentSignature(ber: fields.signature)
        // Without a signing time the token's age is unknown: refuse before spending a signature check on it.
        guard let signingTime = signature.signingTime else {
            throw ApplePayError(code: .signingTimeMissing, message: "the signature has no signingTime attribute")
        }
        var digest = SHA256()
        digest.update(data: fields.keyMaterial)
        digest.update(data: fields.data)
        digest.update(data: fields.transactionId)
        if let applicationDataHash = fields.applicationDataHash { digest.update(data: applicationDataHash) }
        guard signature.messageDigest.elementsEqual(digest.finalize()) else {
            throw ApplePayError(
                code: .messageDigestMismatch, message: "the signed messageDigest does not match the token's fields")
        }
        let chain = try chains.chain(for: signature)
        // The signed attributes as received are checked first: signers send them in DER already, and only when
        // that fails is the (slower) DER re-encoding of a BER sender tried.
        let key = chain.leaf.publicKey
        let signed =
            try key.isValidSignature(
                signature.signature, for: signature.signedAttributesAsReceived,
                signatureAlgorithm: signature.signatureAlgorithm)
            || key.isValidSignature(
                signature.signature, for: signature.signedAttributesDER(),
                signatureAlgorithm: signature.signatureAlgorithm)
        guard signed else {
            throw ApplePayError(code: .signatureInvalid, message: "the signature does not verify with the leaf key")
        }
        try chain.checkValidity(at: signingTime)
        let age = now().timeIntervalSince(signingTime)
        guard abs(age) <= signingTimeWindow else {
            throw ApplePayError(
                code: .tokenExpired,
                message: "the token was signed \(Int(abs(age))) s \(age > 0 ? "before" : "after") the clock's time, "
                    + "outside the \(Int(signingTimeWindow)) s window")
        }
        return signingTime
    }

    private static func checkApplicationData(header: [UInt8]?, supplied: [UInt8]?) throws {
        guard let supplied else { return }
        guard let header, header.elementsEqual(SHA256.hash(data: supplied)) else {
            throw ApplePayError(
                code: .applicationDataMismatch,
                message: header == nil
                    ? "application data was supplied but the token's header has no applicationData hash"
                    : "the header's applicationData is not SHA-256 of the supplied application data")
        }
    }

    private static func decrypt(_ fields: TokenFields, with merchant: MerchantIdentity) throws -> [UInt8] {
        let key: SymmetricKey
        switch (fields.version, merchant.privateKey) {
        case (.ecV1, .p256(let privateKey)):
            let ephemeral: P256.KeyAgreement.PublicKey
            do {
                ephemeral = try P256.KeyAgreement.PublicKey(derRepresentation: fields.keyMaterial)
            } catch {
                throw ApplePayError(code: .tokenMalformed, message: "the ephemeralPublicKey is not a P-256 public key")
            }
            let secret = try PaymentDataKeyDerivation.sharedSecret(privateKey: privateKey, publicKey: ephemeral)
            key = PaymentDataKeyDerivation.symmetricKey(
                sharedSecret: secret, merchantIdentifierHash: merchant.merchantIdentifierHash)
        case (.rsaV1, .rsa(let privateKey)):
            let unwrapped: Data
            do {
                unwrapped = try privateKey.decrypt(fields.keyMaterial, padding: .PKCS1_OAEP_SHA256)
            } catch {
                throw ApplePayError(
                    code: .decryptionFailed, message: "the wrappedKey does not unwrap with the merchant key")
            }
            guard unwrapped.count == 16 || unwrapped.count == 32 else {
                throw ApplePayError(code: .decryptionFailed, message: "the unwrapped key is not an AES key")
            }
            key = SymmetricKey(data: unwrapped)
        default:
            throw ApplePayError(
                code: .decryptionFailed,
                message: "the merchant key for this publicKeyHash does not fit \(fields.version.rawValue)")
        }
        return try PaymentDataCipher.open(fields.data, using: key)
    }

    private static func codingPath(of error: DecodingError) -> String {
        let path: [any CodingKey]
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
        case .keyNotFound(let key, let context):
            path = context.codingPath + [key]
        @unknown default:
            path = []
        }
        return path.isEmpty
            ? "the top" : path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
