#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a stream of JSON request lines and writes exactly one JSON result line per request line.
///
/// Feed it chunks of any size with `consume(_:)` (lines may span chunks), call `finish()` at the end of input, and
/// drain `output` whenever it has grown large. A request is `{"op":"<python name>", <arguments>…, "id":<any>}`;
/// the answer is `{"id":…,"result":"<hex or text>"}` or `{"id":…,"error":{"code":…,"message":…}}`, `id` echoed
/// verbatim when the request had one.
///
/// A processor keeps per-thread state (parser buffers, argument buffers, random bytes), so it is a class: use one
/// per thread.
public final class BatchProcessor {
    /// The result lines written so far.
    public let output: BatchOutput
    private let table: BatchOperationTable
    private let parser = FlatJSONParser()
    private let pool = ArgumentPool()
    private var carry: [UInt8] = []

    /// Makes a processor over the given operations (by default every operation this module provides).
    public init(operations: BatchOperationTable = .standard, outputCapacity: Int = 1 << 20) {
        table = operations
        output = BatchOutput(capacity: outputCapacity)
    }

    deinit { pool.deallocate() }

    /// Processes every complete line in `chunk`, keeping a trailing partial line for the next chunk.
    public func consume(_ chunk: UnsafeBufferPointer<UInt8>) {
        var start = 0
        while let index = Self.newline(in: chunk, from: start) {
            let line = UnsafeBufferPointer(rebasing: chunk[start..<index])
            if carry.isEmpty {
                process(line: line)
            } else {
                carry.append(contentsOf: line)
                processCarry()
            }
            start = index + 1
        }
        if start < chunk.count {
            carry.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start...]))
        }
    }

    /// The index of the next newline at or after `start` (memchr: vectorised by the C library).
    @inline(__always)
    private static func newline(in chunk: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < chunk.count, let base = chunk.baseAddress,
            let found = memchr(base + start, 0x0A, chunk.count - start)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// Processes the last line when the input did not end with a newline.
    public func finish() {
        if !carry.isEmpty { processCarry() }
    }

    /// Runs a whole input held in memory and returns the result lines (for tests and small inputs).
    public func run(_ input: [UInt8]) -> [UInt8] {
        input.withUnsafeBufferPointer { consume($0) }
        finish()
        return output.take()
    }

    private func processCarry() {
        let line = carry
        carry.removeAll(keepingCapacity: true)
        line.withUnsafeBufferPointer { process(line: $0) }
    }

    /// Answers one request line.
    public func process(line: UnsafeBufferPointer<UInt8>) {
        do {
            try parser.parse(line)
        } catch {
            output.writeError(error, id: nil)
            return
        }
        // One pass over the parser's buffers for the id, the operation and its arguments (each separate access
        // to them cost a retain and release of both).
        parser.withUnsafeBuffers { fields, text in
            // Looked for from the end first, where generated requests (pyemv's arguments, then `op` and `id`) put
            // them; the search goes round, so any order is found.
            let idIndex = FlatJSONParser.index(of: "id", in: fields, text: text, from: fields.count - 1)
            let id = idIndex.map { UnsafeBufferPointer(rebasing: line[fields[$0].token]) }
            do throws(BatchError) {
                guard let opIndex = FlatJSONParser.index(of: "op", in: fields, text: text, from: fields.count - 2),
                    case .string(let name) = fields[opIndex].value,
                    let operation = table.index(named: UnsafeBufferPointer(rebasing: text[name]))
                else {
                    throw BatchError(.unknownOperation, "`op` does not name a known operation")
                }
                var arguments = try BatchArguments(
                    fields: fields, text: text, pool: pool, reserved: opIndex, alsoReserved: idIndex
                )
                let value = try table.run(operation, &arguments)
                try arguments.checkAllUsed()
                output.writeResult(value, id: id)
            } catch {
                output.writeError(error, id: id)
            }
        }
    }
}
