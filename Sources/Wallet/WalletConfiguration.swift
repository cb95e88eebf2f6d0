import CardEmulator
public import Crypto
public import Foundation

/// Everything a ``DigitalWallet`` is built from: who it is, its issuer connection, its store and key, the device,
/// the clock, and the session's time limits.
public struct WalletConfiguration: Sendable {
    /// The wallet's identifier at the issuer.
    public var walletID: String
    /// The device's identifier at the issuer.
    public var deviceID: String
    /// The issuer's token service.
    public var issuer: any WalletIssuerService
    /// Where the sealed records live.
    public var storage: any WalletStorage
    /// The AES-256 key the records are sealed under (on a phone: kept in the Keychain / StrongBox).
    public var storageKey: SymmetricKey
    /// The phone: NFC permission, eligibility, integrity, the cardholder's authentication.
    public var device: DeviceEnvironment
    /// The current time: key validity, authentication validity, session duration.
    public var clock: @Sendable () -> Date
    /// Randomness for the card's dynamic numbers.
    public var randomBytes: @Sendable (_ count: Int) -> [UInt8]
    /// How long emulation may last: 60 s, as the system allows.
    public var maximumSessionDuration: TimeInterval
    /// How long a cardholder authentication stays valid for starting a transaction.
    public var authenticationValidity: TimeInterval
    /// Below this many usable keys a card ``DigitalCard/PaymentKeyInfo/needsReplenishment``.
    public var replenishmentThreshold: Int
    /// How many keys a replenishment asks for.
    public var replenishmentBatchSize: Int

    /// Creates a configuration.
    public init(
        walletID: String, deviceID: String, issuer: any WalletIssuerService, storage: any WalletStorage,
        storageKey: SymmetricKey, device: DeviceEnvironment, clock: @escaping @Sendable () -> Date = { Date() },
        randomBytes: @escaping @Sendable (_ count: Int) -> [UInt8] = CardEnvironment.system.randomBytes,
        maximumSessionDuration: TimeInterval = 60, authenticationValidity: TimeInterval = 30,
        replenishmentThreshold: Int = 3, replenishmentBatchSize: Int = 10
    ) {
        self.walletID = walletID
        self.deviceID = deviceID
        self.issuer = issuer
        self.storage = storage
        self.storageKey = storageKey
        self.device = device
        self.clock = clock
        self.randomBytes = randomBytes
        self.maximumSessionDuration = maximumSessionDuration
        self.authenticationValidity = authenticationValidity
        self.replenishmentThreshold = replenishmentThreshold
        self.replenishmentBatchSize = replenishmentBatchSize
    }
}
