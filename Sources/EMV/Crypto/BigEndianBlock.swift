/// Loads and stores of 64-bit cipher blocks in byte buffers, most significant byte first.
@usableFromInline
enum BigEndianBlock {
    /// The block of 8 bytes at `offset`; the caller guarantees `offset + 8 <= bytes.count`.
    @inline(__always) @usableFromInline
    static func load(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Writes `block` as 8 bytes at `offset`; the caller guarantees `offset + 8 <= bytes.count`.
    @inline(__always) @usableFromInline
    static func store(_ block: UInt64, into bytes: UnsafeMutableRawBufferPointer, at offset: Int) {
        bytes.storeBytes(of: block.bigEndian, toByteOffset: offset, as: UInt64.self)
    }

    /// The first 8 bytes of `bytes` as a block; the caller checks the count.
    @inline(__always) @usableFromInline
    static func load(_ bytes: some Collection<UInt8>) -> UInt64 {
        bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The 8 bytes of `block`.
    @inline(__always) @usableFromInline
    static func bytes(_ block: UInt64) -> [UInt8] {
        bytes(block, prefix: 8)
    }

    /// The first `length` bytes of `block` (none for a negative length, all 8 for a longer one), made in one
    /// allocation rather than by slicing the 8 bytes.
    @inline(__always) @usableFromInline
    static func bytes(_ block: UInt64, prefix length: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 8) { buffer, count in
            store(block, into: UnsafeMutableRawBufferPointer(buffer), at: 0)
            count = min(max(0, length), 8)
        }
    }

    /// The 16 bytes of two blocks, `high` first.
    @inline(__always) @usableFromInline
    static func bytes(_ high: UInt64, _ low: UInt64) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 16) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            store(high, into: raw, at: 0)
            store(low, into: raw, at: 8)
            count = 16
        }
    }
}
