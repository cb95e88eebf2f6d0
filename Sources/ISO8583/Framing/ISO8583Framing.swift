/// The TCP framing between gateway and issuer: each message preceded by its length as two big-endian bytes.
///
/// ```swift
/// let framing = ISO8583Framing()
/// let frame = try framing.frame(bytes)
/// var buffer: [UInt8] = received
/// while let message = try framing.nextMessage(from: &buffer) { … }
/// ```
public struct ISO8583Framing: Sendable, Hashable {
    /// Bytes of length prefix.
    public static let prefixLength = 2

    /// The longest message accepted or produced, at most 65,535 (what two bytes express).
    public let maximumMessageLength: Int

    /// Creates a framing; `maximumMessageLength` is clamped to 0...65,535.
    public init(maximumMessageLength: Int = 65_535) {
        self.maximumMessageLength = min(max(maximumMessageLength, 0), 65_535)
    }

    /// The message with its two-byte length prefix.
    /// - Throws: ``ISO8583Error/oversizedFrame`` when the message is longer than ``maximumMessageLength``.
    public func frame(_ message: [UInt8]) throws(ISO8583Error) -> [UInt8] {
        try checkLength(message.count, offset: nil)
        var frame: [UInt8] = [UInt8(message.count >> 8), UInt8(message.count & 0xFF)]
        frame.reserveCapacity(message.count + 2)
        frame += message
        return frame
    }

    /// The message inside exactly one frame.
    /// - Throws: ``ISO8583Error/truncatedFrame`` (under two bytes, or fewer than announced),
    ///   ``ISO8583Error/oversizedFrame``, ``ISO8583Error/trailingBytes`` (more than announced).
    public func deframe(_ frame: [UInt8]) throws(ISO8583Error) -> ArraySlice<UInt8> {
        let length = try announcedLength(frame[...])
        guard frame.count >= length + 2 else {
            throw ISO8583Error(
                code: .truncatedFrame, offset: frame.count,
                message: "the frame announces \(length) bytes but holds \(frame.count - 2)")
        }
        guard frame.count == length + 2 else {
            throw ISO8583Error(
                code: .trailingBytes, offset: length + 2, message: "\(frame.count - length - 2) bytes after the frame")
        }
        return frame[2...]
    }

    /// Removes and returns the first whole message in `buffer` (bytes read from a stream so far); nil while the
    /// buffer holds less than one frame.
    /// - Throws: ``ISO8583Error/oversizedFrame`` as soon as a prefix announces more than ``maximumMessageLength``,
    ///   so a reader can drop the connection instead of buffering.
    public func nextMessage(from buffer: inout [UInt8]) throws(ISO8583Error) -> [UInt8]? {
        guard buffer.count >= 2 else { return nil }
        let length = try announcedLength(buffer[...])
        guard buffer.count >= length + 2 else { return nil }
        let message = Array(buffer[2..<length + 2])
        buffer.removeFirst(length + 2)
        return message
    }

    private func announcedLength(_ bytes: ArraySlice<UInt8>) throws(ISO8583Error) -> Int {
        guard bytes.count >= 2 else {
            throw ISO8583Error(
                code: .truncatedFrame, offset: bytes.count,
                message: "\(bytes.count) bytes where the frame's length prefix needs 2")
        }
        let length = Int(bytes[bytes.startIndex]) << 8 | Int(bytes[bytes.startIndex + 1])
        try checkLength(length, offset: 0)
        return length
    }

    private func checkLength(_ length: Int, offset: Int?) throws(ISO8583Error) {
        guard length <= maximumMessageLength else {
            throw ISO8583Error(
                code: .oversizedFrame, offset: offset,
                message: "a message of \(length) bytes, more than the maximum \(maximumMessageLength)")
        }
    }
}
