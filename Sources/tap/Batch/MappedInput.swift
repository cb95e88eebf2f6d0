#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard input as one read-only memory mapping, when it is a regular file (`tap crypto batch < cases.jsonl`):
/// the lines are answered where the page cache holds them, with no `read` copying them into a buffer first. Pipes
/// and terminals are read round by round (``InputRound``).
///
/// The mapping is never unmapped: standard input is mapped once and answered until the process ends, whose
/// teardown of the address space costs less than a `munmap` of it while the worker threads are alive.
struct MappedInput {
    /// The input from the file's offset at start to its end at start.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the complete lines end: just after the last newline, 0 when there is none.
    private let completeEnd: Int

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        var end = bytes.count
        while end > 0, bytes[end - 1] != 0x0A { end -= 1 }
        completeEnd = end
    }

    /// Maps standard input from its current offset, or nil when it is not a file with bytes left that can be
    /// mapped: the caller then reads it.
    static func standardInput() -> MappedInput? {
        // Seekable with bytes after the offset: a file (pipes and terminals cannot seek or have no end).
        let offset = Int(lseek(STDIN_FILENO, 0, SEEK_CUR))
        guard offset >= 0 else { return nil }
        let size = Int(lseek(STDIN_FILENO, 0, SEEK_END))
        _ = lseek(STDIN_FILENO, off_t(offset), SEEK_SET)
        guard size > offset else { return nil }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = offset / page * page
        let length = size - start
        // Not MAP_POPULATE: it maps every page before the first line is answered, on this thread alone (about
        // 8 ms for a 100 MB batch, 2-3 % of its run); left to page faults, the workers map their parts as they go.
        guard let mapping = mmap(nil, length, PROT_READ, MAP_PRIVATE, STDIN_FILENO, off_t(start)),
            mapping != MAP_FAILED
        else { return nil }
        _ = madvise(mapping, length, MADV_SEQUENTIAL)
        let base = UnsafeRawPointer(mapping).assumingMemoryBound(to: UInt8.self) + (offset - start)
        return MappedInput(bytes: UnsafeBufferPointer(start: base, count: size - offset))
    }

    /// The input up to and including its last newline: the complete lines, answered in one run (as they are
    /// ready, so the memory a run holds is its parts in flight).
    var completeLines: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[..<completeEnd]) }

    /// The bytes after the last newline: a last line without one, or nothing.
    var partialLine: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[completeEnd...]) }
}
