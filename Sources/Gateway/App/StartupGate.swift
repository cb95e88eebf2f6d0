import Logging
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

extension StartupGate {
    /// Runs `work` every `interval` once `gate` (if any) is open, until the service is told to stop: the loop of
    /// the gateway's background services. A round that throws is logged as `failure`, by error type only (an error's
    /// text could quote data), and the next round comes as usual; graceful shutdown cuts the wait short.
    static func repeatEvery(
        _ interval: Duration, after gate: StartupGate?, logger: Logger, failure: Logger.Message,
        _ work: () async throws -> Void
    ) async {
        if let gate, await !gate.waitUntilOpen() { return }
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            do {
                try await work()
            } catch {
                logger.warning(failure, metadata: ["error": "\(type(of: error))"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }
}
