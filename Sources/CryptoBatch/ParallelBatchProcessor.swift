import Dispatch

/// Answers large runs of request lines on several threads, keeping the answers in input order.
///
/// Each run of complete lines is cut at line boundaries into one part per worker; every worker has its own
/// `BatchProcessor` (its own parser and output buffer), so the workers share nothing but the immutable operation
/// table and DES tables. Small runs, as in interactive use, are answered on the calling thread.
public final class ParallelBatchProcessor {
    private let processors: [BatchProcessor]
    /// Below this many bytes a run is answered on the calling thread: splitting would cost more than it saves.
    private let parallelThreshold: Int

    /// Makes a processor with `workers` threads' worth of per-thread state (at least one).
    public init(workers: Int, operations: BatchOperationTable = .standard, parallelThreshold: Int = 1 << 16) {
        processors = (0..<max(1, workers)).map { _ in BatchProcessor(operations: operations) }
        self.parallelThreshold = parallelThreshold
    }

    /// Answers every line of `lines`, which must be whole lines (each ending with a newline), and hands the
    /// answers to `write` in order, in as few pieces as there are workers.
    public func process(
        lines: UnsafeBufferPointer<UInt8>,
        write: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        guard !lines.isEmpty else { return }
        let parts = split(lines)
        if parts.count == 1 {
            processors[0].consume(lines)
        } else {
            let shared = UnsafeSendable((processors, lines))
            DispatchQueue.concurrentPerform(iterations: parts.count) { index in
                let (processors, lines) = shared.value
                processors[index].consume(UnsafeBufferPointer(rebasing: lines[parts[index]]))
            }
        }
        for index in parts.indices {
            try processors[index].output.withBytes(write)
            processors[index].output.removeAll()
        }
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

    /// Cuts `lines` into up to one part per worker, each ending just after a newline.
    private func split(_ lines: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        guard lines.count >= parallelThreshold, processors.count > 1 else { return [0..<lines.count] }
        let target = lines.count / processors.count
        var parts: [Range<Int>] = []
        var start = 0
        while start < lines.count {
            var end = min(start + target, lines.count)
            if parts.count == processors.count - 1 {
                end = lines.count
            } else {
                while end < lines.count && lines[end - 1] != 0x0A { end += 1 }
            }
            parts.append(start..<end)
            start = end
        }
        return parts
    }
}

/// Hands values to concurrent work that touches disjoint parts of them (here: one processor and one part of the
/// input per iteration).
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
