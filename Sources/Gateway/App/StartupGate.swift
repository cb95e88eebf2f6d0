/// Opens once the database is migrated, so background services do not query tables that do not exist yet.
actor StartupGate {
    /// Whether the schema is ready.
    private(set) var isOpen = false

    /// Opens the gate.
    func open() { isOpen = true }
}
