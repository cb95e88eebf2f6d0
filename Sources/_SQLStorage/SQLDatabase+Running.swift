public import Logging
import ServiceLifecycle

extension SQLDatabase {
    /// Runs `body` while the database's service runs, then shuts the service down gracefully (not by cancelling it:
    /// SQLite closes its file on NIO's thread pool, which refuses work from a cancelled task).
    public func whileRunning<Result: Sendable>(
        logger: Logger = Logger(label: "contactless.storage"), _ body: () async throws -> Result
    ) async throws -> Result {
        let services = ServiceGroup(configuration: ServiceGroupConfiguration(services: [self], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask { try await services.run() }
            let result: Result
            do {
                result = try await body()
            } catch {
                // Wait for the service to close the database: a group left by a throw cancels its tasks.
                await services.triggerGracefulShutdown()
                try? await group.waitForAll()
                throw error
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            return result
        }
    }
}
