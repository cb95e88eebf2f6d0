/// Whether the `count` bytes at `a` and at `b` are equal, compared eight (or four) at a time, the last word
/// overlapping the one before.
///
/// For the lookups every request line makes (its operation's name, each argument's key): a byte loop took a
/// compare and branch per byte of 10 to 40-byte names.
@inline(__always)
func equalBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
    @inline(__always) func word<Word: FixedWidthInteger>(_ offset: Int, _: Word.Type) -> Bool {
        a.loadUnaligned(fromByteOffset: offset, as: Word.self) == b.loadUnaligned(fromByteOffset: offset, as: Word.self)
    }
    if count >= 8 {
        var offset = 0
        while offset + 8 < count {
            guard word(offset, UInt64.self) else { return false }
            offset += 8
        }
        return word(count - 8, UInt64.self)
    }
    if count >= 4 { return word(0, UInt32.self) && word(count - 4, UInt32.self) }
    for offset in 0..<count where !word(offset, UInt8.self) { return false }
    return true
}
