import Crypto
import Foundation
import ValueAddedServices

/// The wallet's records sealed with AES-256-GCM under the wallet storage key, each bound to its name (the name is
/// the authenticated data, so records cannot be swapped). Any failure — storage, tampering, a wrong key — is a
/// ``WalletError/Code/keychainError``.
actor WalletStore {
    private let storage: any WalletStorage
    private let key: SymmetricKey
    private static let cardPrefix = "card."
    private static let passPrefix = "pass."
    private static let defaultCardName = "default-card"

    init(storage: any WalletStorage, key: SymmetricKey) {
        self.storage = storage
        self.key = key
    }

    // MARK: - Cards

    func cards() throws(WalletError) -> [DigitalCardRecord] {
        let names: [String]
        do {
            names = try storage.names().filter { $0.hasPrefix(Self.cardPrefix) }
        } catch {
            throw WalletError(.keychainError, "the wallet storage cannot be listed")
        }
        var records: [DigitalCardRecord] = []
        for name in names {
            if let record = try read(name, as: DigitalCardRecord.self) { records.append(record) }
        }
        return records.sorted { $0.ordinal < $1.ordinal }
    }

    func card(_ id: String) throws(WalletError) -> DigitalCardRecord? {
        try read(Self.cardPrefix + id, as: DigitalCardRecord.self)
    }

    func save(_ record: DigitalCardRecord) throws(WalletError) {
        try write(record, named: Self.cardPrefix + record.digitalCardID)
    }

    func deleteCard(_ id: String) throws(WalletError) {
        do {
            try storage.remove(named: Self.cardPrefix + id)
        } catch {
            throw WalletError(.keychainError, "the card's record cannot be removed")
        }
        if try defaultCardID() == id { try setDefaultCardID(nil) }
    }

    /// Changes a stored card; nil when there is none.
    func update(_ id: String, _ body: (inout DigitalCardRecord) throws(WalletError) -> Void) throws(WalletError)
        -> DigitalCardRecord?
    {
        guard var record = try card(id) else { return nil }
        try body(&record)
        try save(record)
        return record
    }

    // MARK: - Loyalty passes

    /// The stored passes, by pass type and serial number.
    func passes() throws(WalletError) -> [VASPass] {
        let names: [String]
        do {
            names = try storage.names().filter { $0.hasPrefix(Self.passPrefix) }.sorted()
        } catch {
            throw WalletError(.keychainError, "the wallet storage cannot be listed")
        }
        var passes: [VASPass] = []
        for name in names {
            if let pass = try read(name, as: VASPass.self) { passes.append(pass) }
        }
        return passes
    }

    func save(_ pass: VASPass) throws(WalletError) {
        try write(pass, named: Self.passName(pass.passTypeIdentifier, pass.serialNumber))
    }

    func deletePass(passTypeIdentifier: String, serialNumber: String) throws(WalletError) {
        do {
            try storage.remove(named: Self.passName(passTypeIdentifier, serialNumber))
        } catch {
            throw WalletError(.keychainError, "the pass's record cannot be removed")
        }
    }

    /// A pass's record name: its type and serial, hex-encoded so any characters make a safe name.
    private static func passName(_ passTypeIdentifier: String, _ serialNumber: String) -> String {
        passPrefix + Array("\(passTypeIdentifier)\n\(serialNumber)".utf8).map { String(format: "%02x", $0) }.joined()
    }

    // MARK: - Default card

    func defaultCardID() throws(WalletError) -> String? {
        try read(Self.defaultCardName, as: String.self)
    }

    func setDefaultCardID(_ id: String?) throws(WalletError) {
        guard let id else {
            do {
                try storage.remove(named: Self.defaultCardName)
            } catch {
                throw WalletError(.keychainError, "the default card cannot be unset")
            }
            return
        }
        try write(id, named: Self.defaultCardName)
    }

    // MARK: - Sealing

    private func read<Value: Decodable>(_ name: String, as type: Value.Type) throws(WalletError) -> Value? {
        let sealed: Data?
        do {
            sealed = try storage.data(named: name)
        } catch {
            throw WalletError(.keychainError, "the wallet storage cannot be read")
        }
        guard let sealed else { return nil }
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            let plain = try AES.GCM.open(box, using: key, authenticating: Data(name.utf8))
            return try JSONDecoder().decode(Value.self, from: plain)
        } catch {
            throw WalletError(.keychainError, "a wallet record does not open under the storage key")
        }
    }

    private func write(_ value: some Encodable, named name: String) throws(WalletError) {
        let sealed: Data
        do {
            let plain = try JSONEncoder().encode(value)
            guard let combined = try AES.GCM.seal(plain, using: key, authenticating: Data(name.utf8)).combined
            else { throw WalletError(.keychainError, "no sealed form") }
            sealed = combined
        } catch {
            throw WalletError(.keychainError, "a wallet record cannot be sealed")
        }
        do {
            try storage.write(sealed, named: name)
        } catch {
            throw WalletError(.keychainError, "the wallet storage cannot be written")
        }
    }
}
