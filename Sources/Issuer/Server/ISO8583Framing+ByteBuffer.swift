public import ISO8583
public import NIOCore

extension ISO8583Framing {
    /// `message` encoded with `specification` and framed, in a buffer ready to write to a channel.
    /// - Throws: ``ISO8583/ISO8583Error`` when the message does not encode or is too long to frame.
    public func frame(
        _ message: ISO8583Message, using specification: Specification, allocator: ByteBufferAllocator
    ) throws(ISO8583Error) -> ByteBuffer {
        allocator.buffer(bytes: try frame(try message.encoded(using: specification)))
    }
}
