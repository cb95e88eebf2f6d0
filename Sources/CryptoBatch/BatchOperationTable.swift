/// Finds operations by name straight from the request's bytes, without making a `String` per line.
///
/// Each operation answers to its full name (`pyemv.mac.mac_iso9797_3`) and, when no other operation shares it,
/// to the name without the package (`mac.mac_iso9797_3`), as the Python module paths read.
public struct BatchOperationTable: Sendable {
    private struct Entry: Sendable {
        let name: [UInt8]
        let operation: Int
    }

    /// The operations, in registration order.
    public let operations: [BatchOperation]
    private let slots: [Entry?]
    private let mask: Int

    /// Indexes `operations` by full and, where unambiguous, unprefixed name.
    public init(_ operations: [BatchOperation]) {
        self.operations = operations
        var names: [(name: [UInt8], operation: Int)] = []
        var shortNameCount: [String: Int] = [:]
        for operation in operations {
            if let short = Self.unprefixed(operation.name) { shortNameCount[short, default: 0] += 1 }
        }
        for (index, operation) in operations.enumerated() {
            names.append((Array(operation.name.utf8), index))
            if let short = Self.unprefixed(operation.name), shortNameCount[short] == 1 {
                names.append((Array(short.utf8), index))
            }
        }
        var size = 16
        while size < names.count * 4 { size *= 2 }
        var slots = [Entry?](repeating: nil, count: size)
        for (name, operation) in names {
            var slot = Self.hash(name[...]) & (size - 1)
            while slots[slot] != nil { slot = (slot + 1) & (size - 1) }
            slots[slot] = Entry(name: name, operation: operation)
        }
        self.slots = slots
        mask = size - 1
    }

    /// The operation named by `name`, or nil.
    public func operation(named name: ArraySlice<UInt8>) -> BatchOperation? {
        var slot = Self.hash(name) & mask
        while let entry = slots[slot] {
            if Self.equal(entry.name, name) { return operations[entry.operation] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// The operation named by `name`, or nil.
    public func operation(named name: String) -> BatchOperation? {
        operation(named: Array(name.utf8)[...])
    }

    /// The name without its first dotted component (the package), when it has at least three.
    private static func unprefixed(_ name: String) -> String? {
        let parts = name.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[1].contains(".") else { return nil }
        return String(parts[1])
    }

    private static func equal(_ a: [UInt8], _ b: ArraySlice<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for index in 0..<a.count where a[index] != b[index] { return false }
                return true
            }
        }
    }

    /// FNV-1a.
    private static func hash(_ bytes: ArraySlice<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBufferPointer { bytes in
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
