public import Foundation

/// Where the wallet keeps its sealed records: opaque bytes by name. The wallet encrypts every record before it gets
/// here (``DigitalWallet`` seals with AES-GCM under the wallet storage key), so a storage sees no card data or keys.
///
/// ``InMemoryWalletStorage`` and ``FileWalletStorage`` are the two implementations; an app on iOS would put the
/// storage key in the Keychain and the records in its container.
public protocol WalletStorage: Sendable {
    /// The record called `name`; nil when there is none.
    func data(named name: String) throws -> Data?
    /// Writes (or replaces) the record called `name`.
    func write(_ data: Data, named name: String) throws
    /// Removes the record called `name`; nothing when there is none.
    func remove(named name: String) throws
    /// The names of every record.
    func names() throws -> [String]
}
