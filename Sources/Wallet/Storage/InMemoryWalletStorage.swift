public import Foundation

/// A wallet storage in memory: tests and demos. Its ``records`` show what an attacker reading the storage would see.
public final class InMemoryWalletStorage: WalletStorage, @unchecked Sendable {
    // A lock rather than an actor: the storage protocol is synchronous.
    private let lock = NSLock()
    private var stored: [String: Data] = [:]

    /// An empty storage.
    public init() {}

    /// Every record as stored (sealed).
    public var records: [String: Data] { lock.withLock { stored } }

    /// The record called `name`.
    public func data(named name: String) throws -> Data? { lock.withLock { stored[name] } }

    /// Stores `data` as `name`.
    public func write(_ data: Data, named name: String) throws { lock.withLock { stored[name] = data } }

    /// Removes `name`.
    public func remove(named name: String) throws { _ = lock.withLock { stored.removeValue(forKey: name) } }

    /// The record names.
    public func names() throws -> [String] { lock.withLock { Array(stored.keys) } }
}
