public import Foundation
public import Issuer

/// An issuer for wallets in the same process: the test cards' accounts in memory, the host with its token vault, a
/// digitization service whose one-time codes land in an outbox, and the wallet's connection to it.
///
/// ```swift
/// let issuer = try TestWalletIssuer(clock: clock.function)
/// let wallet = DigitalWallet(configuration: WalletConfiguration(issuer: issuer.walletService, ...))
/// let code = await issuer.outbox.lastCode(for: pending.digitizationID)
/// ```
public struct TestWalletIssuer: Sendable {
    /// The issuer's keys (``Issuer/IssuerKeys/test``).
    public let keys: IssuerKeys
    /// The test cards' accounts.
    public let repository: InMemoryIssuerRepository
    /// The issuer host, which authorizes the tokens' payments.
    public let host: IssuerHost
    /// Where the one-time codes go.
    public let outbox: OneTimeCodeOutbox
    /// The digitization service.
    public let digitization: DigitizationService

    /// An issuer on `clock` giving `keyBatchSize` keys with each new card.
    /// - Throws: ``Issuer/IssuerError`` when the test keys or accounts do not load (never for the shipped ones).
    public init(clock: @escaping @Sendable () -> Date, keyBatchSize: Int = 10) throws {
        keys = try IssuerKeys.test
        repository = try TestCards.repository(keys: keys)
        host = IssuerHost(keys: keys, repository: repository)
        guard let vault = host.tokenVault else {
            throw IssuerError(.noTokenRange, "the test issuer has no token vault")
        }
        outbox = OneTimeCodeOutbox()
        var digitization = DigitizationService(
            vault: vault, store: InMemoryDigitizationStore(), codes: outbox, clock: clock)
        digitization.keyBatchSize = keyBatchSize
        self.digitization = digitization
    }

    /// The wallet's connection to this issuer.
    public var walletService: IssuerWalletService { IssuerWalletService(service: digitization) }
}
