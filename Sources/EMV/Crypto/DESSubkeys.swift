/// Heap storage for one to three DES key schedules: one allocation, elements tail-allocated.
@usableFromInline
struct DESSubkeys: @unchecked Sendable {
    // Unchecked: the buffer is written only while the owning key is built and read-only afterwards.
    @usableFromInline let buffer: ManagedBuffer<Void, UInt32>

    /// Storage for `schedules` key schedules of ``DESEngine/scheduleWords`` words each, uninitialized.
    @usableFromInline
    init(schedules: Int) {
        buffer = .create(minimumCapacity: schedules * DESEngine.scheduleWords) { _ in () }
    }

    /// Calls `body` with a pointer to the first word.
    @inline(__always) @usableFromInline
    func withWords<Result, Failure: Error>(
        _ body: (UnsafeMutablePointer<UInt32>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try buffer.withUnsafeMutablePointerToElements { words throws(Failure) in try body(words) }
    }
}
