#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A self-pipe that wakes the link's thread out of `poll`: once signalled it stays signalled, so a stop requested
/// before the thread starts waiting is seen all the same.
final class Wakeup: Sendable {
    /// The end `poll` watches.
    let readEnd: Int32
    private let writeEnd: Int32

    /// Opens the pipe.
    /// - Throws: ``VPCDError/Code/socketFailed`` when the process is out of descriptors.
    init() throws(VPCDError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw POSIX.error("pipe") }
        readEnd = ends[0]
        writeEnd = ends[1]
        POSIX.configure(readEnd)
        POSIX.configure(writeEnd)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Wakes the waiting thread, now and for every later wait. Safe from any thread.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Whether ``signal()`` was called.
    var isSignalled: Bool { wait(milliseconds: 0) }

    /// Sleeps up to `milliseconds` unless signalled; returns whether it was signalled.
    func wait(milliseconds: Int32) -> Bool {
        ((try? POSIX.poll([(readEnd, POSIX.readable)], milliseconds: milliseconds)) ?? nil) != nil
    }
}
