public import Foundation
public import X509

/// A stand-in for Apple's token service: it turns an authorized payment into a ``PaymentToken`` in Apple's real
/// format, encrypted to a merchant's payment processing certificate (EC_v1 for a P-256 key, RSA_v1 for an RSA key)
/// and signed by the test PKI's leaf, so the whole in-app flow runs in tests without Apple.
///
/// The online payment cryptogram comes from the caller's ``CryptogramSource`` (the issuer's token vault): the
/// service never invents one.
public struct PaymentTokenService: Sendable {
    /// The PKI whose leaf signs tokens; verifiers configure its root.
    public let pki: TestPaymentPKI
    /// The signing time of each token.
    public let clock: @Sendable () -> Date
    /// Makes each token's transaction identifier (32 random bytes unless a test pins them).
    public let transactionIdentifiers: @Sendable () -> [UInt8]

    /// A service signing with `pki`'s leaf at `clock`'s time.
    public init(
        pki: TestPaymentPKI, clock: @escaping @Sendable () -> Date = { Date() },
        transactionIdentifiers: @escaping @Sendable () -> [UInt8] = {
            PaymentTokenService.randomTransactionIdentifier()
        }
    ) {
        self.pki = pki
        self.clock = clock
        self.transactionIdentifiers = transactionIdentifiers
    }

    /// A token for `request`, paid with `account`, encrypted for `merchantCertificate`, with the cryptogram from
    /// `cryptogramSource`.
    ///
    /// - Throws: ``TokenServiceError`` when the certificate cannot be encrypted to or is another merchant's, or the
    ///   cryptogram is of the wrong kind; whatever `cryptogramSource` throws.
    public func token(
        for request: TokenRequest, account: DeviceAccount, merchantCertificate: Certificate,
        cryptogramSource: CryptogramSource
    ) async throws -> PaymentToken {
        let recipient = try MerchantRecipient(certificate: merchantCertificate)
        guard recipient.isIssued(for: request.merchantIdentifier) else {
            throw TokenServiceError(
                code: .merchantMismatch, message: "the certificate was issued for another merchant identifier"
            )
        }
        let transactionIdentifier = transactionIdentifiers()
        let signingTime = clock()
        let cryptogram = try await cryptogramSource(
            CryptogramRequest(
                accountNumber: account.accountNumber, expiry: account.expiry, amount: request.amount,
                transactionIdentifier: transactionIdentifier, date: signingTime,
                merchantIdentifier: request.merchantIdentifier, payloadKind: request.payloadKind
            )
        )
        guard cryptogram.payloadKind == request.payloadKind else {
            throw TokenServiceError(
                code: .cryptogramMismatch,
                message:
                    "asked for a \(request.payloadKind.rawValue) cryptogram, got \(cryptogram.payloadKind.rawValue)"
            )
        }
        let payload = try JSONEncoder().encode(
            TokenPayloadEncoder.payload(account: account, amount: request.amount, cryptogram: cryptogram)
        )
        let paymentData = try sealedPaymentData(
            payload: payload, recipient: recipient, transactionIdentifier: transactionIdentifier,
            applicationData: request.applicationData, signingTime: signingTime
        )
        return PaymentToken(
            paymentData: paymentData,
            paymentMethod: PaymentMethodDescription(
                displayName: account.displayName, network: account.network, type: account.type
            ),
            transactionIdentifier: paymentData.header.transactionId
        )
    }

    /// Encrypts `payload` (the decrypted payload's JSON) for `merchantCertificate` and signs it: the
    /// `paymentData` object of a token, for tests that need a payload the typed path would not write.
    public func paymentData(
        payload: Data, merchantCertificate: Certificate, transactionIdentifier: [UInt8],
        applicationData: Data? = nil, signingTime: Date
    ) throws -> PaymentData {
        try sealedPaymentData(
            payload: payload, recipient: MerchantRecipient(certificate: merchantCertificate),
            transactionIdentifier: transactionIdentifier, applicationData: applicationData, signingTime: signingTime
        )
    }

    /// 32 bytes from the system's secure random generator, as Apple's transaction identifiers are long.
    public static func randomTransactionIdentifier() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in generator.next() }
    }
}
