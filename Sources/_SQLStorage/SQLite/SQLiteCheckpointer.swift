import NIOPosix
import Synchronization
import VaporCSQLite

/// Checkpoints the write-ahead log from a connection of its own, on NIO's thread pool, so that the writer's commits
/// do not wait for it.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the WAL past 1,000 pages: it copies them into the
/// database file and syncs both files before that commit returns — on ``SQLiteThread``, holding the lock every
/// transaction waits for, so under load all other requests piled up behind it and the CPUs idled about a tenth of
/// the time in `tap bench gateway`'s closed loop. Instead, the writer's WAL hook (called after each commit with the
/// WAL's size) starts a `PASSIVE` checkpoint here: it copies the frames no reader still needs, beside the writer's
/// next commits. Once it has copied every frame, the writer's next transaction starts the WAL over, as after an
/// automatic checkpoint. Should the WAL still reach ``inPlaceLimit`` frames (this one behind, or no moment when it
/// had copied everything), the writer checkpoints in place, as SQLite would have, and its transaction restarts the
/// log; by then most frames are copied already.
final class SQLiteCheckpointer: Sendable {
    /// WAL frames (pages) from which a commit starts a checkpoint here: SQLite's automatic checkpoint threshold.
    static let threshold: Int32 = 1_000
    /// WAL frames from which the writer checkpoints in place: bounds the WAL at about 10 MB of 1 KiB pages.
    static let inPlaceLimit: Int32 = 10_000

    private struct State {
        var running = false
        var closed = false
        /// The WAL's size when the last checkpoint here started (0 after the WAL started over).
        var startedAt: Int32 = 0
    }

    private let handle: SQLiteHandle
    private let state = Mutex(State())

    /// A checkpointer over its own connection to the database file at `path`; install it on the writer's
    /// connection with ``SQLiteHandle/checkpoint(with:)``.
    init(path: String) throws(SQLiteHandle.Failure) {
        // SQLite's default synchronous=FULL: a checkpoint syncs the WAL before copying from it, and the database
        // file after.
        handle = try SQLiteHandle(path: path)
        // A connection finds the WAL only when it first reads the file; until then a checkpoint does nothing.
        _ = try handle.run("PRAGMA journal_mode", [])
    }

    /// Called by the writer's connection after each commit, on the writer's thread, with the WAL's size.
    func walGrew(to frames: Int32, writer: SQLiteHandle) {
        if frames >= Self.inPlaceLimit {
            writer.checkpointPassive()
            return
        }
        guard frames >= Self.threshold else { return }
        // Once per 1,000 new frames, not after every commit: a checkpoint copies the latest version of each page
        // it finds, so checkpoints close together copied the same hot pages (index roots, the tables' last pages)
        // again and again, and synced both files each time.
        let start = state.withLock { state in
            if frames < state.startedAt { state.startedAt = 0 }
            guard !state.running, !state.closed, frames - state.startedAt >= Self.threshold else { return false }
            state.running = true
            state.startedAt = frames
            return true
        }
        guard start else { return }
        NIOThreadPool.singleton.submit { [self] _ in
            // Run even when the pool is shutting down (then here, inline): a checkpoint copies only committed
            // frames, after syncing them.
            handle.checkpointPassive()
            let close = state.withLock { state in
                state.running = false
                return state.closed
            }
            if close { handle.close() }
        }
    }

    /// Closes the checkpointer's connection, now or when its running checkpoint ends; no checkpoint starts after.
    func close() {
        let idle = state.withLock { state in
            state.closed = true
            return !state.running
        }
        if idle { handle.close() }
    }
}
