import Foundation

/// The first statement that failed inside one transaction.
///
/// PostgreSQL aborts a transaction at its first failed statement (every later one fails, and `COMMIT` quietly rolls
/// back), so a body that catches a statement's error cannot carry on. Both databases therefore fail the whole
/// transaction with that statement's error when the body returns anyway, so code that works on SQLite also works on
/// PostgreSQL. Write `INSERT … ON CONFLICT DO NOTHING` instead of catching ``StorageError/Code/uniqueViolation``
/// inside a transaction.
final class StatementFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var first: StorageError?

    /// Remembers `error` unless an earlier statement failed; returns it, to throw.
    func record(_ error: StorageError) -> StorageError {
        lock.withLock {
            if first == nil { first = error }
        }
        return error
    }

    /// Throws the first recorded failure, if any.
    func check() throws(StorageError) {
        if let error = lock.withLock({ first }) { throw error }
    }
}
