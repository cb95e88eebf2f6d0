import ArgumentParser
import CryptoBatch

#if canImport(Glibc)
    import Glibc
    private let systemRead = Glibc.read
    private let systemWrite = Glibc.write
    private let systemPoll = Glibc.poll
#elseif canImport(Darwin)
    import Darwin
    private let systemRead = Darwin.read
    private let systemWrite = Darwin.write
    private let systemPoll = Darwin.poll
#endif

extension Tap {
    /// Answers JSON-lines requests naming pyemv and psec functions, for differential testing against them.
    struct CryptoBatchCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "batch",
            abstract: "Run pyemv/psec-named crypto operations from JSON lines on stdin.",
            discussion: """
                Each input line is a JSON object naming a pyemv 1.5.0 or psec 1.3.0 function by its Python name \
                ("op"; the package prefix, as in "pyemv.mac.mac_iso9797_3", is optional) and passing its arguments \
                by their Python names, bytes as hex strings, with an optional "id" that is echoed. For example:

                {"op":"kd.derive_icc_mk_a","iss_mk":"<32 hex digits>","pan":"1234567890123456"}

                Each output line answers the input line at the same position, with {"result":"<hex or text>"} or \
                {"error":{"code":"…","message":"…"}}. Answers are written as soon as input pauses, or in large blocks.
                """
        )

        @Flag(help: "Print the supported operation names and exit.")
        var list = false

        @Option(help: "Worker threads (default: the number of active processors).")
        var jobs: Int?

        func run() throws {
            if list {
                for operation in BatchOperationTable.standard.operations { print(operation.name) }
                return
            }
            let workers = jobs ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
            let processor = ParallelBatchProcessor(workers: max(1, workers))
            var input = InputBuffer(capacity: Self.roundSize)
            while try input.fill() {
                try input.withCompleteLines { lines in try processor.process(lines: lines, write: Self.write) }
            }
            try input.withRemainder { last in try processor.finish(lastLine: last, write: Self.write) }
        }

        /// How much input one parallel round takes at most.
        private static let roundSize = 8 << 20

        /// Writes all of `bytes` to standard output, retrying short and interrupted writes.
        private static func write(_ buffer: UnsafeBufferPointer<UInt8>) throws {
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(STDOUT_FILENO, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw ValidationError("cannot write standard output (errno \(errno))")
                }
                offset += written
            }
        }
    }
}

/// Standard input read in rounds: each round blocks for some input, then takes whatever else is already
/// waiting, up to the buffer's capacity, so bulk input is answered in large parallel rounds and interactive
/// input line by line.
private struct InputBuffer {
    private var bytes: [UInt8]
    private let capacity: Int
    private var count = 0
    /// Bytes before this offset are complete lines not yet handed out.
    private var completeEnd = 0
    private var atEnd = false

    init(capacity: Int) {
        self.capacity = capacity
        bytes = [UInt8](repeating: 0, count: capacity)
    }

    /// Reads the next round; false at the end of input.
    mutating func fill() throws -> Bool {
        guard !atEnd else { return false }
        if count == capacity {
            // One line longer than the buffer: grow so it can be completed.
            bytes += [UInt8](repeating: 0, count: bytes.count)
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
                throw ValidationError("cannot read standard input (errno \(errno))")
            }
            if read == 0 {
                atEnd = true
                break
            }
            count += read
        }
        completeEnd = (bytes[..<count].lastIndex(of: 0x0A)).map { $0 + 1 } ?? 0
        return completeEnd > 0 || !atEnd
    }

    /// Hands out the complete lines read so far and keeps the partial line after them.
    mutating func withCompleteLines(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        guard completeEnd > 0 else { return }
        try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<completeEnd])) }
        let rest = count - completeEnd
        if rest > 0 {
            bytes.withUnsafeMutableBufferPointer { buffer in
                for index in 0..<rest { buffer[index] = buffer[completeEnd + index] }
            }
        }
        count = rest
        completeEnd = 0
    }

    /// Hands out the last line when the input did not end with a newline.
    func withRemainder(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        guard count > 0 else { return }
        try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<count])) }
    }

    /// Whether standard input has data (or end of file) ready without blocking.
    private static func inputWaiting() -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return systemPoll(&descriptor, 1, 0) > 0
    }
}
