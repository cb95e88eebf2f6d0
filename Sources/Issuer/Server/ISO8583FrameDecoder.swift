public import ISO8583
public import NIOCore

/// Splits a TCP byte stream into ISO 8583 messages by their two-byte length prefix (``ISO8583/ISO8583Framing``), for
/// a NIO pipeline: `ByteToMessageHandler(ISO8583FrameDecoder())`.
///
/// Each message goes on as one `ByteBuffer` without its prefix. A prefix announcing more than the framing's maximum
/// throws ``ISO8583/ISO8583Error/oversizedFrame`` at once, before any of the body is buffered, so the connection can
/// be closed; the error names the length only, never bytes of the stream.
public struct ISO8583FrameDecoder: ByteToMessageDecoder, Sendable {
    /// A message without its length prefix.
    public typealias InboundOut = ByteBuffer

    /// The framing whose maximum message length applies.
    public let framing: ISO8583Framing

    /// Creates a decoder for `framing`.
    public init(framing: ISO8583Framing = ISO8583Framing()) {
        self.framing = framing
    }

    /// Emits the next whole message, if the buffer holds one.
    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt16.self) else { return .needMoreData }
        guard Int(length) <= framing.maximumMessageLength else {
            throw ISO8583Error(
                code: .oversizedFrame, offset: 0,
                message: "a message of \(length) bytes, more than the maximum \(framing.maximumMessageLength)")
        }
        guard buffer.readableBytes >= ISO8583Framing.prefixLength + Int(length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: ISO8583Framing.prefixLength)
        guard let message = buffer.readSlice(length: Int(length)) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(message))
        return .continue
    }

    /// Drops a partial message at the end of the stream: the peer closed in the middle of a frame.
    public mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}

extension ISO8583FrameDecoder {
    /// A bootstrap's channel initializer for ISO 8583 connections: adds the decoder to `channel` and wraps it in an
    /// async channel of whole messages in, framed bytes out.
    public static func asyncChannel(
        _ channel: any Channel, framing: ISO8583Framing = ISO8583Framing()
    ) -> EventLoopFuture<NIOAsyncChannel<ByteBuffer, ByteBuffer>> {
        channel.eventLoop.makeCompletedFuture { try wrap(channel, framing: framing) }
    }

    /// Wraps a connection a server accepted with `autoRead` off (its child channel initializer returned the bare
    /// channel), then turns reading on.
    ///
    /// Why not wrap in the child initializer: an accepted connection whose initializer completes after the server's
    /// stream of connections has ended (a client connecting during shutdown) is dropped by NIO, and a dropped async
    /// channel traps. A dropped bare channel does not, and this way no byte is read before the decoder is in place.
    public static func asyncChannel(
        accepted channel: any Channel, framing: ISO8583Framing = ISO8583Framing()
    ) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try await channel.eventLoop.submit {
            let connection = try wrap(channel, framing: framing)
            try channel.syncOptions?.setOption(.autoRead, value: true)
            return connection
        }.get()
    }

    /// Adds the decoder and wraps the channel; on its event loop.
    private static func wrap(
        _ channel: any Channel, framing: ISO8583Framing
    ) throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(ISO8583FrameDecoder(framing: framing)))
        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
    }
}
