public import ValueAddedServices

extension DigitalWallet {
    /// Adds a loyalty pass, sealed in the wallet's storage beside its cards (replacing a pass with the same type and
    /// serial number).
    /// - Throws: ``WalletError`` `keychainError` when the storage fails.
    public func addPass(_ pass: VASPass) async throws(WalletError) {
        try await store.save(pass)
    }

    /// The wallet's loyalty passes.
    /// - Throws: ``WalletError`` `keychainError` when the storage fails or a record does not open.
    public func passes() async throws(WalletError) -> [VASPass] {
        try await store.passes()
    }

    /// Removes a loyalty pass; nothing when there is none.
    /// - Throws: ``WalletError`` `keychainError` when the storage fails.
    public func removePass(passTypeIdentifier: String, serialNumber: String) async throws(WalletError) {
        try await store.deletePass(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
    }

    /// Serves the wallet's passes on `field`, for readers that ask for loyalty without a payment (a payment session
    /// serves them itself when the cardholder authenticates).
    /// - Throws: ``WalletError`` `keychainError` when the storage fails.
    public func servePasses(on field: CardEmulationField) async throws(WalletError) {
        field.servePasses(try await store.passes(), clock: configuration.clock)
    }
}
