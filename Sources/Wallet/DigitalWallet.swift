import Foundation

/// One wallet on one device: its encrypted store, its card services and the rule of one payment session at a time.
///
/// Thales's SDK keeps this state in singletons; here it is explicit, so tests run wallets side by side.
///
/// ```swift
/// let wallet = DigitalWallet(configuration: configuration)
/// let eligibility = try await wallet.cardDigitizationService.checkEligibility(
///     EligibilityData(), instrumentData: InstrumentData(fundingPAN: pan, expiry: expiry))
/// let pending = try await wallet.cardDigitizationService.digitizeCard(
///     withTNC: eligibility.termsAndConditions.accept(), eligibility: eligibility)
/// let card = try await wallet.cardDigitizationService.verifyIdentity(pending, code: codeFromSMS)
/// let session = ContactlessPaymentSession(wallet: wallet, field: field)
/// await session.startPayment()
/// ```
public final class DigitalWallet: Sendable {
    /// What the wallet was built from.
    public let configuration: WalletConfiguration
    /// Lists and manages the digital cards.
    public let digitalCardManager: DigitalCardManager
    /// Digitizes funding cards.
    public let cardDigitizationService: CardDigitizationService
    /// Fetches new payment keys.
    public let replenishmentService: ReplenishmentService

    let store: WalletStore
    let sessions = SessionSlot()

    /// Creates a wallet; nothing is read before the first call.
    public init(configuration: WalletConfiguration) {
        self.configuration = configuration
        let store = WalletStore(storage: configuration.storage, key: configuration.storageKey)
        self.store = store
        digitalCardManager = DigitalCardManager(configuration: configuration, store: store)
        cardDigitizationService = CardDigitizationService(configuration: configuration, store: store)
        replenishmentService = ReplenishmentService(configuration: configuration, store: store)
    }
}
