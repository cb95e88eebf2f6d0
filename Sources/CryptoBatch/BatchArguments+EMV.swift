import EMV

/// Arguments read as EMV types.
extension BatchArguments {
    /// A required DES key (8, 16 or 24 bytes of hex).
    mutating func desKey(_ name: StaticString) throws(BatchError) -> TDESKey {
        let bytes = try bytes(name)
        return try emv { () throws(CryptoError) in try TDESKey(bytes) }
    }

    /// A required ISO/IEC 9797-1 padding method number, limited to `methods` (pyemv takes 1 and 2, psec 1 to 3).
    mutating func padding(_ name: StaticString, methods: ClosedRange<Int>) throws(BatchError) -> ISO9797.Padding {
        let method = try int(name)
        guard methods.contains(method) else {
            throw BatchError(
                .invalidArgument,
                "`\(name)` must be a padding method \(methods.lowerBound) to \(methods.upperBound), not \(method)"
            )
        }
        return [.method1, .method2, .method3][method - 1]
    }

    /// An optional block size for the padding functions: 1 to 256 bytes, 8 by default.
    mutating func blockSize(_ name: StaticString) throws(BatchError) -> Int {
        let size = try optionalInt(name) ?? 8
        guard (1...256).contains(size) else {
            throw BatchError(.invalidArgument, "`\(name)` must be 1 to 256 bytes, not \(size)")
        }
        return size
    }

    /// An optional length of a truncated value (a check value): Python's `value[:length]` for `length` >= 0.
    mutating func prefixLength(_ name: StaticString, default defaultLength: Int) throws(BatchError) -> Int {
        let length = try optionalInt(name) ?? defaultLength
        guard length >= 0 else { throw BatchError(.invalidArgument, "`\(name)` must not be negative") }
        return length
    }
}
