#if canImport(Glibc)
    import Glibc
    private let systemRead = Glibc.read
    private let systemPoll = Glibc.poll
#elseif canImport(Darwin)
    import Darwin
    private let systemRead = Darwin.read
    private let systemPoll = Darwin.poll
#endif

/// One round of standard input for `tap crypto batch`: complete lines, then the start of a partial one.
///
/// A round blocks for some input, then takes whatever else is already waiting, up to its capacity, so bulk input is
/// answered in large parallel rounds and interactive input line by line. The next round is read on another thread
/// while this one is answered; the two never touch a round at the same time, hence `@unchecked Sendable`.
final class InputRound: @unchecked Sendable {
    private var bytes: [UInt8]
    private var count = 0
    /// Bytes before this offset are complete lines.
    private var completeEnd = 0
    /// Whether standard input ended during this round.
    private(set) var atEnd = false
    /// The `errno` of a failed read, if any.
    private(set) var failure: Int32?

    init(capacity: Int) {
        bytes = Self.uninitialized(count: capacity)
    }

    /// A buffer whose bytes are only ever read after `read` wrote them: zero-filling two 8 MiB rounds (and faulting
    /// in every page for it) was a third of the command's start-up time.
    private static func uninitialized(count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// Starts the round with the partial line that ended the previous one.
    func start(carrying previous: InputRound) {
        let tail = previous.count - previous.completeEnd
        if bytes.count < tail * 2 { bytes = Self.uninitialized(count: tail * 2) }
        previous.bytes.withUnsafeBufferPointer { source in
            bytes.withUnsafeMutableBufferPointer { target in
                for index in 0..<tail { target[index] = source[previous.completeEnd + index] }
            }
        }
        count = tail
        completeEnd = 0
        atEnd = false
        failure = nil
    }

    /// Reads until the buffer is full or no more input is waiting (blocking for the first read only).
    func fill() {
        if count == bytes.count {
            // One line longer than the buffer: grow so it can be completed.
            bytes += Self.uninitialized(count: bytes.count)
        }
        var first = true
        while count < bytes.count {
            if !first && !Self.inputWaiting() { break }
            first = false
            let read = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { systemRead(STDIN_FILENO, $0 + count, buffer.count - count) } ?? 0
            }
            if read < 0 {
                if errno == EINTR { continue }
                failure = errno
                atEnd = true
                break
            }
            if read == 0 {
                atEnd = true
                break
            }
            count += read
        }
        completeEnd = bytes[..<count].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
    }

    /// Calls `body` with the complete lines of the round (nothing when there are none).
    func withCompleteLines(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        guard completeEnd > 0 else { return }
        try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<completeEnd])) }
    }

    /// Calls `body` with the partial line after the complete ones: the last line, once input has ended.
    func withPartialLine(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        guard count > completeEnd else { return }
        try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[completeEnd..<count])) }
    }

    /// Whether standard input has data (or its end) ready without blocking.
    private static func inputWaiting() -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return systemPoll(&descriptor, 1, 0) > 0
    }
}
