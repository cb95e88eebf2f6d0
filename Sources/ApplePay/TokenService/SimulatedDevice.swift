public import X509

/// A simulated iPhone's payment side: the device accounts in its wallet and the link to the token service, so an
/// authorized payment becomes a token without Apple or a secure element.
///
/// The cryptogram source stands for the issuer's token vault, which authenticates each payment for the device
/// account (in the end-to-end flow it is the issuer host's algorithm).
public struct SimulatedDevice: Sendable {
    /// The cards in the wallet, the default first.
    public var accounts: [DeviceAccount]
    /// The token service the device sends authorized payments to.
    public var tokenService: PaymentTokenService
    /// Where payments' cryptograms come from.
    public var cryptogramSource: CryptogramSource

    /// A device with `accounts`, tokenizing through `tokenService` with cryptograms from `cryptogramSource`.
    public init(
        accounts: [DeviceAccount], tokenService: PaymentTokenService, cryptogramSource: @escaping CryptogramSource
    ) {
        self.accounts = accounts
        self.tokenService = tokenService
        self.cryptogramSource = cryptogramSource
    }

    /// The token for `request`, authorized with `account` (the first card when nil), for the merchant whose payment
    /// processing certificate is `merchantCertificate`.
    ///
    /// - Throws: ``TokenServiceError`` from the token service, or `noAccount` when the
    ///   wallet is empty.
    public func authorize(
        _ request: TokenRequest, with account: DeviceAccount? = nil, merchantCertificate: Certificate
    ) async throws -> PaymentToken {
        guard let account = account ?? accounts.first else {
            throw TokenServiceError(code: .noAccount, message: "the device has no card to pay with")
        }
        return try await tokenService.token(
            for: request, account: account, merchantCertificate: merchantCertificate,
            cryptogramSource: cryptogramSource
        )
    }
}
