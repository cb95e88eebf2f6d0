import CardEmulator
import Foundation

/// The wallet's digital cards (Thales: `DigitalCardManager`): list them, pick the default, suspend, resume and delete
/// them — at the issuer first, so the token's state there is the card's state here.
public actor DigitalCardManager {
    /// What ``manage(digitalCardID:action:)`` does (Thales: `CardManagementAction`).
    public enum CardManagementAction: Sendable, Hashable {
        /// Suspends the card at the issuer and in the wallet.
        case suspend
        /// Resumes a suspended card.
        case resume
        /// Deletes the token at the issuer and the card (and its keys) from the wallet.
        case delete
    }

    private let configuration: WalletConfiguration
    private let store: WalletStore

    init(configuration: WalletConfiguration, store: WalletStore) {
        self.configuration = configuration
        self.store = store
    }

    /// Every card, oldest first.
    /// - Throws: ``WalletError/Code/keychainError`` when the store does not open.
    public func digitalCards() async throws(WalletError) -> [DigitalCard] {
        let defaultID = try await store.defaultCardID()
        return try await store.cards().map { snapshot($0, defaultID: defaultID) }
    }

    /// The card with this identifier; nil when there is none.
    public func digitalCard(forID digitalCardID: String) async throws(WalletError) -> DigitalCard? {
        guard let record = try await store.card(digitalCardID) else { return nil }
        return snapshot(record, defaultID: try await store.defaultCardID())
    }

    /// The default payment card; nil when none is set.
    public func defaultCard() async throws(WalletError) -> DigitalCard? {
        guard let id = try await store.defaultCardID() else { return nil }
        return try await digitalCard(forID: id)
    }

    /// Makes the card the default payment card (Thales: `DigitalCard.setDefault()`).
    /// - Throws: ``WalletError/Code/invalidDigitalCardID``, ``WalletError/Code/keychainError``.
    public func setDefaultCard(digitalCardID: String) async throws(WalletError) {
        guard try await store.card(digitalCardID) != nil else {
            throw WalletError(.invalidDigitalCardID, "no digital card has this identifier")
        }
        try await store.setDefaultCardID(digitalCardID)
    }

    /// Leaves the wallet without a default card.
    public func unsetDefaultCard() async throws(WalletError) {
        try await store.setDefaultCardID(nil)
    }

    /// Suspends, resumes or deletes the card: at the issuer, then in the wallet.
    /// - Throws: ``WalletError/Code/invalidDigitalCardID``; the issuer's refusal (``WalletError/Code/cardNotActive``
    ///   for a deleted token); ``WalletError/Code/keychainError``.
    public func manage(digitalCardID: String, action: CardManagementAction) async throws(WalletError) {
        guard let record = try await store.card(digitalCardID) else {
            throw WalletError(.invalidDigitalCardID, "no digital card has this identifier")
        }
        switch action {
        case .suspend:
            try await configuration.issuer.setStatus(.suspended, tokenID: record.tokenID)
            _ = try await store.update(digitalCardID) { $0.state = .suspended }
        case .resume:
            try await configuration.issuer.setStatus(.active, tokenID: record.tokenID)
            _ = try await store.update(digitalCardID) { $0.state = .active }
        case .delete:
            try await configuration.issuer.setStatus(.deleted, tokenID: record.tokenID)
            try await store.deleteCard(digitalCardID)
        }
    }

    /// Sets the wallet transaction data the card carries in its payments (Thales:
    /// `DigitalCard.setWalletTransactionData(_:)`): Mastercard only, at most 14 bytes, in the issuer application
    /// data where the issuer reads it; nil removes it.
    /// - Throws: ``WalletError/Code/cardNotSupported`` for another scheme,
    ///   ``WalletError/Code/invalidWalletTransactionData`` for more than 14 bytes.
    public func setWalletTransactionData(_ data: [UInt8]?, forDigitalCardID digitalCardID: String)
        async
        throws(WalletError)
    {
        guard let record = try await store.card(digitalCardID) else {
            throw WalletError(.invalidDigitalCardID, "no digital card has this identifier")
        }
        if let data {
            try Self.checkWalletTransactionData(data, scheme: record.scheme)
        }
        _ = try await store.update(digitalCardID) { $0.walletTransactionData = data }
    }

    /// Wallet transaction data is Mastercard's, and at most 14 bytes.
    static func checkWalletTransactionData(_ data: [UInt8], scheme: CardProfile.Scheme) throws(WalletError) {
        guard scheme == .mastercard else {
            throw WalletError(.cardNotSupported, "wallet transaction data is for Mastercard cards only")
        }
        guard data.count <= 14 else {
            throw WalletError(
                .invalidWalletTransactionData, "wallet transaction data is at most 14 bytes, not \(data.count)")
        }
    }

    private func snapshot(_ record: DigitalCardRecord, defaultID: String?) -> DigitalCard {
        DigitalCard(
            record, isDefault: record.digitalCardID == defaultID, at: configuration.clock(),
            threshold: configuration.replenishmentThreshold)
    }
}
