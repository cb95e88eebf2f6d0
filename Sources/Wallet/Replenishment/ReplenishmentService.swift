import CardEmulator
import Foundation

/// Fetches new payment keys from the issuer (Thales: `ReplenishmentService`).
public actor ReplenishmentService {
    private let configuration: WalletConfiguration
    private let store: WalletStore

    init(configuration: WalletConfiguration, store: WalletStore) {
        self.configuration = configuration
        self.store = store
    }

    /// Replenishes the card when it ``DigitalCard/PaymentKeyInfo/needsReplenishment`` (or always, `isForced`):
    /// asks the issuer for the wallet's batch of keys and seals them with the card's others.
    /// - Returns: how many keys were added (0 when none were needed).
    /// - Throws: ``WalletError/Code/invalidDigitalCardID``, ``WalletError/Code/cardNotActive`` for a card that is
    ///   not active, the issuer's errors, ``WalletError/Code/replenishmentFailed`` when the keys' ATCs are not new,
    ///   ``WalletError/Code/keychainError``.
    @discardableResult
    public func replenish(digitalCardID: String, isForced: Bool = false) async throws(WalletError) -> Int {
        guard let record = try await store.card(digitalCardID) else {
            throw WalletError(.invalidDigitalCardID, "no digital card has this identifier")
        }
        guard record.state == .active else { throw WalletError(.cardNotActive, "the card is \(record.state)") }
        let usable = record.usableKeys(at: configuration.clock()).count
        guard isForced || usable < configuration.replenishmentThreshold else { return 0 }
        let keys = try await configuration.issuer.replenish(
            tokenID: record.tokenID, count: configuration.replenishmentBatchSize)
        _ = try await store.update(digitalCardID) { (record) throws(WalletError) in
            // The same rule the card applies: an ATC never repeats, so new keys lie above every key held or spent.
            let highest = max(record.lastATC ?? 0, record.keys.map(\.atc).max() ?? 0)
            let atcs = keys.map(\.atc)
            guard Set(atcs).count == atcs.count, atcs.allSatisfy({ $0 > highest }) else {
                throw WalletError(.replenishmentFailed, "the issuer's keys do not have new ATCs above \(highest)")
            }
            record.keys += keys.map(DigitalCardRecord.StoredKey.init)
            record.keys.sort { $0.atc < $1.atc }
        }
        return keys.count
    }
}
