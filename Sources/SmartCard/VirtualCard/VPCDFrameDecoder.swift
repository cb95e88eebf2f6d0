/// Cuts the byte stream vpcd sends into ``VPCDFrame``s, whatever the TCP segments: a length may arrive alone, a
/// frame in pieces, several frames at once.
///
/// ```swift
/// var decoder = VPCDFrameDecoder()
/// decoder.append(received)
/// while let frame = try decoder.nextFrame() { ... }
/// try decoder.finish()          // the connection closed: nothing may be left half-read
/// ```
public struct VPCDFrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start; the consumed prefix is dropped once it outgrows the rest.
    private var start = 0

    /// Creates a decoder with nothing buffered.
    public init() {}

    /// Buffers bytes received from vpcd.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start >= buffer.count - start {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Bytes received and not yet returned as a frame.
    public var bufferedByteCount: Int { buffer.count - start }

    /// The next complete frame, or nil when more bytes are needed.
    ///
    /// - Throws: ``VPCDError/Code/emptyFrame`` or ``VPCDError/Code/unknownControlCode``. The offending frame is
    ///   consumed, so the stream stays in step and the caller may go on decoding.
    public mutating func nextFrame() throws(VPCDError) -> VPCDFrame? {
        guard bufferedByteCount >= 2 else { return nil }
        let length = Int(buffer[start]) << 8 | Int(buffer[start + 1])
        guard bufferedByteCount >= 2 + length else { return nil }
        let payload = buffer[(start + 2)..<(start + 2 + length)]
        start += 2 + length
        return try VPCDFrame(payload: payload)
    }

    /// Checks that the stream ended on a frame boundary.
    ///
    /// - Throws: ``VPCDError/Code/truncatedFrame`` when bytes of an incomplete frame are buffered.
    public func finish() throws(VPCDError) {
        let pending = bufferedByteCount
        guard pending > 0 else { return }
        if pending < 2 {
            throw VPCDError(code: .truncatedFrame, message: "the stream ended inside a frame's 2-byte length")
        }
        let length = Int(buffer[start]) << 8 | Int(buffer[start + 1])
        throw VPCDError(
            code: .truncatedFrame,
            message: "the stream ended \(pending - 2) bytes into a frame announcing \(length)")
    }
}
