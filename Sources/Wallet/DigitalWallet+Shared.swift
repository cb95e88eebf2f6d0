import CardEmulator
import Crypto
import Foundation

extension DigitalWallet {
    /// The app's wallet, as Thales's SDK holds it once configured at start-up: what ``ContactlessPaymentSession/init()``
    /// pays with. Nil until ``configure(_:)``.
    public static var shared: DigitalWallet? { SharedWallet.lock.withLock { SharedWallet.wallet } }

    /// Makes the app's wallet from `configuration` (Thales: the SDK's configuration at start-up), replacing any
    /// earlier one, and returns it.
    @discardableResult
    public static func configure(_ configuration: WalletConfiguration) -> DigitalWallet {
        let wallet = DigitalWallet(configuration: configuration)
        SharedWallet.lock.withLock { SharedWallet.wallet = wallet }
        return wallet
    }

    /// The wallet of a session made before ``configure(_:)``: a device that may not pay contactless, so the session
    /// fails at once with `systemEligibilityFailed` and never reaches a store or an issuer.
    static let notConfigured = DigitalWallet(
        configuration: WalletConfiguration(
            walletID: "not-configured", deviceID: "not-configured", issuer: NotConfiguredIssuer(),
            storage: InMemoryWalletStorage(), storageKey: SymmetricKey(size: .bits256),
            device: DeviceEnvironment(
                nfcPermissionGranted: false, isEligibleForContactless: false,
                authenticateUser: { _ in .failed })))
}

/// The process's wallet, behind a lock.
private enum SharedWallet {
    static let lock = NSLock()
    nonisolated(unsafe) static var wallet: DigitalWallet?
}

/// The issuer connection of a wallet that was never configured: every call fails.
private struct NotConfiguredIssuer: WalletIssuerService {
    static let error = WalletError(code: .issuerError, message: "the wallet SDK is not configured")
    func checkEligibility(_ instrument: InstrumentData, walletID: String, deviceID: String) async throws(WalletError)
        -> EligibilityAcceptableData
    { throw Self.error }
    func digitize(eligibilityID: String, acceptedTermsID: String) async throws(WalletError)
        -> PendingIdentityVerification
    { throw Self.error }
    func verifyIdentity(digitizationID: String, code: String) async throws(WalletError) -> TokenizedCard {
        throw Self.error
    }
    func replenish(tokenID: String, count: Int) async throws(WalletError) -> [LimitedUseKey] { throw Self.error }
    func setStatus(_ status: TokenStatus, tokenID: String) async throws(WalletError) { throw Self.error }
}
