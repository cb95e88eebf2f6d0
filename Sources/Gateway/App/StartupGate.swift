import ServiceLifecycle

/// Opens once the database is migrated, so background services do not query tables that do not exist yet.
actor StartupGate {
    /// Whether the schema is ready.
    private(set) var isOpen = false

    /// Opens the gate.
    func open() { isOpen = true }

    /// Waits until the gate opens; false when the service is told to stop first. Polled rather than awaited, so a
    /// start that fails (and cancels the waiting service) cannot leave it waiting.
    func waitUntilOpen() async -> Bool {
        while !isOpen {
            if Task.isShuttingDownGracefully || Task.isCancelled { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
