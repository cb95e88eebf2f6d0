import Dispatch
import Synchronization

/// Answers large runs of request lines on several threads, keeping the answers in input order.
///
/// Each run of complete lines is cut at line boundaries into parts dealt out to the workers; every worker has its
/// own `BatchProcessor` (its own parser, output buffer and operation table), so the workers share nothing but
/// the immutable DES tables. Small runs, as in interactive use, are answered on the calling thread.
public final class ParallelBatchProcessor {
    private let processors: [BatchProcessor]
    /// Below this many bytes a run is answered on the calling thread: splitting would cost more than it saves.
    private let parallelThreshold: Int

    /// Makes a processor with `workers` threads' worth of per-thread state (at least one); `operations` is called
    /// once per worker, so that no two workers call the same closures (see ``BatchOperationTable/standard``).
    public init(
        workers: Int, operations: () -> BatchOperationTable = { .standard }, parallelThreshold: Int = 1 << 16
    ) {
        processors = (0..<max(1, workers)).map { _ in BatchProcessor(operations: operations()) }
        self.parallelThreshold = parallelThreshold
    }

    /// Answers every line of `lines`, which must be whole lines (each ending with a newline), and hands the
    /// answers to `write` in order.
    ///
    /// A large run is cut into several parts per worker, which the workers take one at a time as they finish the
    /// last: requests of one kind tend to come in long stretches, and a heavy stretch (cryptograms) next to a
    /// light one (padding) left one worker idle while the other finished when parts were dealt out in advance.
    public func process(
        lines: UnsafeBufferPointer<UInt8>,
        write: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        guard !lines.isEmpty else { return }
        let parts = split(lines)
        guard parts.count > 1 else {
            processors[0].consume(lines)
            try processors[0].output.withBytes(write)
            processors[0].output.removeAll()
            return
        }
        let workers = min(processors.count, parts.count)
        // Which worker answered each part, and where in that worker's output its answers lie.
        var answers = [PartAnswers](repeating: PartAnswers(), count: parts.count)
        let nextPart = Atomic<Int>(0)
        answers.withUnsafeMutableBufferPointer { answers in
            let shared = UnsafeSendable((processors, lines, answers))
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let (processors, lines, answers) = shared.value
                let processor = processors[worker]
                while true {
                    let part = nextPart.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard part < parts.count else { break }
                    let start = processor.output.count
                    processor.consume(UnsafeBufferPointer(rebasing: lines[parts[part]]))
                    answers[part] = PartAnswers(worker: worker, range: start..<processor.output.count)
                }
            }
        }
        for part in answers {
            try processors[part.worker].output.withBytes { output in
                try write(UnsafeBufferPointer(rebasing: output[part.range]))
            }
        }
        for worker in 0..<workers { processors[worker].output.removeAll() }
    }

    /// Answers a last line that has no newline after it.
    public func finish(
        lastLine: UnsafeBufferPointer<UInt8>,
        write: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        processors[0].consume(lastLine)
        processors[0].finish()
        try processors[0].output.withBytes(write)
        processors[0].output.removeAll()
    }

    /// Cuts `lines` into up to ``partsPerWorker`` parts per worker of at least ``parallelThreshold`` / 2
    /// bytes, each ending just after a newline.
    private func split(_ lines: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        guard lines.count >= parallelThreshold, processors.count > 1 else { return [0..<lines.count] }
        let count = min(processors.count * Self.partsPerWorker, max(2, 2 * lines.count / parallelThreshold))
        let target = lines.count / count
        var parts: [Range<Int>] = []
        var start = 0
        while start < lines.count {
            var end = min(start + target, lines.count)
            if parts.count == count - 1 {
                end = lines.count
            } else {
                while end < lines.count && lines[end - 1] != 0x0A { end += 1 }
            }
            parts.append(start..<end)
            start = end
        }
        return parts
    }

    /// Parts per worker in a large run: enough to even out stretches of heavy and light requests, few enough
    /// that the per-part cost (a write each) stays negligible.
    private static let partsPerWorker = 16
}

/// Where the answers to one part of a run are: a range of one worker's output.
private struct PartAnswers {
    var worker = 0
    var range = 0..<0
}

/// Hands values to concurrent work that touches disjoint parts of them (here: one processor and one part of the
/// input per iteration).
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
