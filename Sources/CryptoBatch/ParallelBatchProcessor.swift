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
    /// A large run is cut into parts, which the workers take one at a time as they finish the last: requests of
    /// one kind tend to come in long stretches, and a heavy stretch (cryptograms) next to a light one (padding)
    /// left one worker idle while the other finished when parts were dealt out in advance. A finished part's
    /// answers are written as soon as every part before it has been, by whichever worker finished last, while the
    /// others go on: written after the run, they left all but one core idle meanwhile (a twentieth of the time of
    /// the differential test's batch, with the wait for the run's last part).
    /// - Throws: What `write` throws; the workers then stop taking parts.
    public func process(
        lines: UnsafeBufferPointer<UInt8>,
        write: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) throws {
        guard !lines.isEmpty else { return }
        let parts = split(lines)
        guard parts.count > 1 else {
            processors[0].consume(lines)
            try processors[0].output.flush(to: write)
            return
        }
        let workers = min(processors.count, parts.count)
        let schedule = PartSchedule(parts: parts.count)
        try withoutActuallyEscaping(write) { write in
            let shared = UnsafeSendable((processors, lines))
            let writer = UnsafeSendable(write)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let (processors, lines) = shared.value
                let write = writer.value
                let processor = processors[worker]
                while let part = schedule.take() {
                    processor.consume(UnsafeBufferPointer(rebasing: lines[parts[part]]))
                    do {
                        var due: [[UInt8]]
                        if schedule.claim(part) {
                            // Next in line with no writer: written from the processor's buffer, with no copy.
                            try processor.output.flush(to: write)
                            due = schedule.wrote()
                        } else {
                            due = schedule.finished(part, answers: processor.output.take())
                        }
                        while !due.isEmpty {
                            for answers in due { try answers.withUnsafeBufferPointer(write) }
                            due = schedule.wrote()
                        }
                    } catch {
                        schedule.fail(error)
                        return
                    }
                }
            }
        }
        if let failure = schedule.failure { throw failure }
    }

    /// Answers a last line that has no newline after it.
    public func finish(
        lastLine: UnsafeBufferPointer<UInt8>,
        write: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        processors[0].consume(lastLine)
        processors[0].finish()
        try processors[0].output.flush(to: write)
    }

    /// Cuts `lines` into up to ``partsPerWorker`` parts per worker of at least ``parallelThreshold`` / 2
    /// bytes — more for a run so large that they would exceed ``maximumPartBytes`` — each ending just after a
    /// newline.
    private func split(_ lines: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        guard lines.count >= parallelThreshold, processors.count > 1 else { return [0..<lines.count] }
        let count = max(
            min(processors.count * Self.partsPerWorker, max(2, 2 * lines.count / parallelThreshold)),
            lines.count / Self.maximumPartBytes)
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

    /// The largest part: the last one a worker takes is on average half a part's work that the others do not
    /// share (a quarter of a megabyte is about two milliseconds of requests).
    private static let maximumPartBytes = 1 << 18
}

/// Which part of a run a worker takes next, and which finished parts' answers are due to be written: those right
/// after the last written, in order, by one worker at a time.
private final class PartSchedule: Sendable {
    private struct State {
        var next = 0
        /// Answers of finished parts not yet written, by part (nil until finished, and again once taken).
        var answers: [[UInt8]?]
        var nextToWrite = 0
        /// Whether a worker is writing answers (it takes every part that becomes due meanwhile).
        var writing = false
        var failure: (any Error)?

        /// Takes the answers now due, becoming the writer if there are any (none after a failed write).
        mutating func takeDue() -> [[UInt8]] {
            var due: [[UInt8]] = []
            guard failure == nil else {
                writing = false
                return due
            }
            while nextToWrite < answers.count, let ready = answers[nextToWrite] {
                due.append(ready)
                answers[nextToWrite] = nil
                nextToWrite += 1
            }
            writing = !due.isEmpty
            return due
        }
    }

    private let state: Mutex<State>

    init(parts: Int) {
        state = Mutex(State(answers: Array(repeating: nil, count: parts)))
    }

    /// The next part to answer, or nil when all are taken (or a write failed).
    func take() -> Int? {
        state.withLock { state in
            guard state.next < state.answers.count, state.failure == nil else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    /// Makes the caller the writer of `part`'s answers, straight from its own buffer, when `part` is the next to
    /// be written and no worker is writing (then the caller calls ``wrote()`` after writing them).
    func claim(_ part: Int) -> Bool {
        state.withLock { state in
            guard !state.writing, state.failure == nil, state.nextToWrite == part else { return false }
            state.writing = true
            state.nextToWrite += 1
            return true
        }
    }

    /// Records a part's answers; returns the answers the caller is to write now (empty while another worker
    /// writes, or while an earlier part is unfinished).
    func finished(_ part: Int, answers: [UInt8]) -> [[UInt8]] {
        state.withLock { state in
            state.answers[part] = answers
            return state.writing ? [] : state.takeDue()
        }
    }

    /// The writer wrote what it took: returns what became due meanwhile, or empty, no longer the writer.
    func wrote() -> [[UInt8]] {
        state.withLock { $0.takeDue() }
    }

    /// A write failed: no more parts are taken.
    func fail(_ error: any Error) {
        state.withLock { state in
            state.failure = error
            state.writing = false
        }
    }

    var failure: (any Error)? { state.withLock { $0.failure } }
}

/// Hands values to concurrent work that touches disjoint parts of them (here: one processor and one part of the
/// input per iteration).
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
