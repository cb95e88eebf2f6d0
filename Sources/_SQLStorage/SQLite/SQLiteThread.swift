import Foundation

/// The thread that runs every SQLite statement and transaction of the process: a task executor with one thread of
/// its own (``SQLiteStorage`` runs its work under `withTaskExecutorPreference(SQLiteThread.shared)`).
///
/// SQLite has one writer, so the connection's lock passes from transaction to transaction. On Swift's global
/// executor each hand-over would queue the next holder behind every other job (HTTP parsing, HPKE, JSON) while the
/// lock sits idle. Here the next holder waits only for other database work, and a blocking call (a commit that
/// checkpoints) holds up no thread that runs Swift's other tasks.
final class SQLiteThread: TaskExecutor, @unchecked Sendable {
    /// The process's one SQLite thread (started on first use, never stopped).
    static let shared = SQLiteThread(name: "contactless.sqlite")

    private let condition = NSCondition()
    /// Jobs waiting to run, guarded by `condition`.
    private var waiting: [UnownedJob] = []

    private init(name: String) {
        let thread = Thread { [unowned self] in self.run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        waiting.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs in arrival order, taking all that are waiting at once (one lock round per batch).
    private func run() {
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while waiting.isEmpty { condition.wait() }
            swap(&batch, &waiting)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
