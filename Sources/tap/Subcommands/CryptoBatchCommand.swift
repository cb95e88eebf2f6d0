import ArgumentParser
import CryptoBatch
import Dispatch

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
            if let input = MappedInput.standardInput() {
                // All of a mapped file in one run: answers are written as they are ready, and rounds would only
                // add a wait for each round's last part.
                try processor.process(lines: input.completeLines, write: Self.write)
                let last = input.partialLine
                if !last.isEmpty { try processor.finish(lastLine: last, write: Self.write) }
                return
            }
            let reader = DispatchQueue(label: "tap.crypto.batch.reader")
            let nextRead = DispatchGroup()
            var current = InputRound(capacity: Self.roundSize)
            var next = InputRound(capacity: Self.roundSize)
            current.fill()
            while true {
                if let failure = current.failure {
                    throw ValidationError("cannot read standard input (errno \(failure))")
                }
                if !current.atEnd {
                    // Read the next round while this one is answered.
                    next.start(carrying: current)
                    let round = next
                    reader.async(group: nextRead) { round.fill() }
                }
                try current.withCompleteLines { lines in try processor.process(lines: lines, write: Self.write) }
                if current.atEnd {
                    try current.withPartialLine { last in try processor.finish(lastLine: last, write: Self.write) }
                    return
                }
                nextRead.wait()
                swap(&current, &next)
            }
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
