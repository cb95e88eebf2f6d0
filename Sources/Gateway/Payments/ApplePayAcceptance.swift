import ApplePay
import Foundation
import GatewayAPI
import X509

/// What the gateway needs to accept a merchant's Apple Pay tokens: the merchant's registered payment processing
/// identities, the roots a token's signing chain may end at, the shared transactionId replay store and the clock.
struct ApplePayAcceptance: Sendable {
    let identities: ApplePayIdentityRepository
    /// Apple Root CA - G3, plus any configured (test) roots.
    let trustedRoots: [Certificate]
    let replayStore: any TransactionReplayStore
    /// How far a token's signing time may be from the clock.
    let signingTimeWindow: TimeInterval
    let clock: @Sendable () -> Date

    /// Verifies and decrypts `token` with the merchant's identities.
    /// - Throws: ``GatewayAPIError`` `paymentTokenExpired` (outside the signing-time window),
    ///   `paymentTokenReplayed` (its transactionId was accepted before), `paymentTokenInvalid` (anything else,
    ///   including a merchant without a registered certificate for the token's key).
    func verify(_ token: ApplePayTokenJSON, applicationData: String?, merchantId: String) async throws
        -> VerifiedPaymentToken
    {
        var appData: [UInt8]?
        if let applicationData {
            guard let bytes = Data(base64Encoded: applicationData) else {
                throw GatewayAPIError(code: .invalidRequest, message: "applicationData is not base64")
            }
            appData = Array(bytes)
        }
        let merchants = try await identities.identities(merchantId: merchantId)
        guard !merchants.isEmpty else {
            throw GatewayAPIError(
                code: .paymentTokenInvalid, message: "the merchant has no Apple Pay payment processing certificate")
        }
        let decryptor = PaymentTokenDecryptor(
            merchants: merchants, trustedRoots: trustedRoots, signingTimeWindow: signingTimeWindow,
            replayStore: replayStore, now: clock)
        do {
            return try await decryptor.decrypt(json: token.json, applicationData: appData)
        } catch let error as ApplePayError {
            throw Self.apiError(error)
        }
    }

    /// The API's error for a token the verifier refused; the message names the check, never a value.
    static func apiError(_ error: ApplePayError) -> GatewayAPIError {
        switch error.code {
        case .tokenExpired:
            GatewayAPIError(code: .paymentTokenExpired, message: "the token was signed outside the accepted window")
        case .tokenReplayed:
            GatewayAPIError(code: .paymentTokenReplayed, message: "the token's transactionId was accepted before")
        case .unknownPublicKeyHash:
            GatewayAPIError(
                code: .paymentTokenInvalid,
                message: "the token is encrypted to a key the merchant has not registered (unknownPublicKeyHash)")
        default:
            GatewayAPIError(code: .paymentTokenInvalid, message: "the token failed verification: \(error.code)")
        }
    }
}
