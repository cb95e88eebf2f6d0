/// Finds operations by name straight from the request's bytes, without making a `String` per line.
///
/// Each operation answers to its full name (`pyemv.mac.mac_iso9797_3`) and, when no other operation shares it,
/// to the name without the package (`mac.mac_iso9797_3`), as the Python module paths read.
public struct BatchOperationTable: Sendable {
    /// A name's place in `names` and the index of its operation; an operation index of -1 marks an empty slot.
    ///
    /// All names live in one byte array, so a lookup retains nothing (an array per name cost a retain and
    /// release on every request line).
    private struct Entry: Sendable {
        let start: Int
        let count: Int
        let operation: Int
        static let empty = Entry(start: 0, count: 0, operation: -1)
    }

    /// The operations, in registration order.
    public let operations: [BatchOperation]
    private let names: [UInt8]
    private let slots: [Entry]
    private let mask: Int
    /// The operations' implementations, in `operations` order, where a lookup per request line reads them.
    private let runs: RunStorage

    /// Indexes `operations` by full and, where unambiguous, unprefixed name.
    public init(_ operations: [BatchOperation]) {
        self.operations = operations
        var shortNameCount: [String: Int] = [:]
        for operation in operations {
            if let short = Self.unprefixed(operation.name) { shortNameCount[short, default: 0] += 1 }
        }
        var names: [UInt8] = []
        var entries: [Entry] = []
        func add(_ name: String, _ operation: Int) {
            entries.append(Entry(start: names.count, count: name.utf8.count, operation: operation))
            names += name.utf8
        }
        for (index, operation) in operations.enumerated() {
            add(operation.name, index)
            if let short = Self.unprefixed(operation.name), shortNameCount[short] == 1 { add(short, index) }
        }
        var size = 16
        while size < entries.count * 4 { size *= 2 }
        var slots = [Entry](repeating: .empty, count: size)
        names.withUnsafeBufferPointer { names in
            for entry in entries {
                let name = UnsafeBufferPointer(rebasing: names[entry.start..<entry.start + entry.count])
                var slot = Self.hash(name) & (size - 1)
                while slots[slot].operation >= 0 { slot = (slot + 1) & (size - 1) }
                slots[slot] = entry
            }
        }
        self.names = names
        self.slots = slots
        mask = size - 1
        runs = RunStorage(operations.map(\.run))
    }

    /// The operation named by `name`, or nil.
    public func operation(named name: ArraySlice<UInt8>) -> BatchOperation? {
        name.withUnsafeBufferPointer { operation(named: $0) }
    }

    /// The operation named by `name`, or nil.
    public func operation(named name: String) -> BatchOperation? {
        operation(named: Array(name.utf8)[...])
    }

    /// The operation named by the bytes at `name`, or nil.
    func operation(named name: UnsafeBufferPointer<UInt8>) -> BatchOperation? {
        index(named: name).map { operations[$0] }
    }

    /// Runs `operations[index]`.
    ///
    /// The per-line path: with `index(named:)` it copies no `BatchOperation` (its name string and closure
    /// context were a retain and release each on every line).
    @inline(__always)
    func run(_ index: Int, _ arguments: inout BatchArguments) throws(BatchError) -> BatchValue {
        try runs.pointer[index](&arguments)
    }

    /// The index in `operations` of the operation named by the bytes at `name`.
    func index(named name: UnsafeBufferPointer<UInt8>) -> Int? {
        names.withUnsafeBufferPointer { names in
            slots.withUnsafeBufferPointer { slots -> Int? in
                var slot = Self.hash(name) & mask
                while slots[slot].operation >= 0 {
                    let entry = slots[slot]
                    if entry.count == name.count, Self.equal(names, from: entry.start, name) { return entry.operation }
                    slot = (slot + 1) & mask
                }
                return nil
            }
        }
    }

    /// The name without its first dotted component (the package), when it has at least three.
    private static func unprefixed(_ name: String) -> String? {
        let parts = name.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[1].contains(".") else { return nil }
        return String(parts[1])
    }

    /// Whether `name` is the bytes of `names` from `start` on; the caller checked there are enough of them.
    @inline(__always)
    private static func equal(
        _ names: UnsafeBufferPointer<UInt8>, from start: Int, _ name: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard let namesBase = names.baseAddress, let nameBase = name.baseAddress else { return name.isEmpty }
        return equalBytes(namesBase + start, nameBase, count: name.count)
    }

    /// A hash of the name eight bytes at a time (the last word overlapping the one before): byte-wise FNV-1a
    /// is a chain of one multiply per byte, about 150 cycles for a 35-byte name on every line.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = UInt64(bytes.count) &* multiplier
        func mix(_ word: UInt64) {
            hash = (hash ^ word) &* multiplier
            hash ^= hash &>> 29
        }
        let raw = UnsafeRawBufferPointer(bytes)
        if bytes.count < 8 {
            var word: UInt64 = 0
            for byte in bytes { word = word &<< 8 | UInt64(byte) }
            mix(word)
        } else {
            var offset = 0
            while offset + 8 < bytes.count {
                mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            mix(raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
        }
        return Int(truncatingIfNeeded: hash ^ hash &>> 32)
    }
}

/// The operations' closures in memory of their own, read through a pointer.
private final class RunStorage: @unchecked Sendable {
    // Unchecked: written once in init, read-only afterwards.
    let pointer: UnsafeMutablePointer<BatchOperation.Run>
    let count: Int

    init(_ runs: [BatchOperation.Run]) {
        count = runs.count
        pointer = .allocate(capacity: runs.count)
        pointer.initialize(from: runs, count: runs.count)
    }

    deinit {
        pointer.deinitialize(count: count)
        pointer.deallocate()
    }
}
