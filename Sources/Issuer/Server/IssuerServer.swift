public import Foundation
public import ISO8583
public import Logging
public import NIOCore
import NIOPosix
public import ServiceLifecycle

/// The issuer host on TCP: accepts acquirer connections, reads ISO 8583 messages framed with a two-byte length
/// prefix, answers each with ``IssuerHost/handle(_:at:)``.
///
/// ```swift
/// let server = IssuerServer(host: IssuerHost(keys: keys, repository: repository), logger: logger)
/// let group = ServiceGroup(services: [server], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()   // elsewhere: try await server.localAddress
/// ```
///
/// Messages of one connection are handled concurrently, so answers may leave in another order than their requests
/// came (the acquirer matches them by MTI, STAN, terminal and RRN); a request the host does not answer (nil) gets
/// nothing. A message that does not decode is logged (its error code, field and offset, never its bytes) and not
/// answered; a frame announcing more than the framing's maximum closes that connection. Other connections are not
/// affected by either. On graceful shutdown the server stops accepting and reading, answers the messages it has
/// read, then closes the connections and returns.
public final class IssuerServer: Service, Sendable {
    /// Where the server listens and how it reads messages.
    public struct Configuration: Sendable {
        /// The address to bind: `127.0.0.1` (the default), `0.0.0.0`, a host name.
        public var host: String
        /// The TCP port; 0 lets the system choose one (read it from ``IssuerServer/localAddress``).
        public var port: Int
        /// The message layout, ``ISO8583/Specification/contactless`` by default.
        public var specification: Specification
        /// The length prefix and the longest message accepted.
        public var framing: ISO8583Framing

        /// Creates a configuration.
        public init(
            host: String = "127.0.0.1", port: Int = 0, specification: Specification = .contactless,
            framing: ISO8583Framing = ISO8583Framing()
        ) {
            self.host = host
            self.port = port
            self.specification = specification
            self.framing = framing
        }
    }

    /// The host that answers the messages.
    public let issuer: IssuerHost
    /// Where the server listens and how it reads messages.
    public let configuration: Configuration
    private let logger: Logger
    private let eventLoopGroup: any EventLoopGroup
    private let clock: @Sendable () -> Date
    private let bound = BoundAddress()

    /// Creates a server; nothing listens until ``run()``.
    /// - Parameters:
    ///   - issuer: The host answering each request.
    ///   - configuration: Address, port, specification and framing.
    ///   - logger: Where connections and dropped messages are logged (never card data).
    ///   - eventLoopGroup: The NIO event loops, the shared singleton by default.
    ///   - clock: The time handed to the host with each request.
    public init(
        issuer: IssuerHost, configuration: Configuration = Configuration(), logger: Logger,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.issuer = issuer
        self.configuration = configuration
        self.logger = logger
        self.eventLoopGroup = eventLoopGroup
        self.clock = clock
    }

    /// The address the server listens on, once ``run()`` has bound it.
    /// - Throws: The binding error when ``run()`` could not listen.
    public var localAddress: SocketAddress {
        get async throws { try await bound.value() }
    }

    /// The TCP port the server listens on, once ``run()`` has bound it (the chosen one, for port 0).
    /// - Throws: The binding error when ``run()`` could not listen, `ChannelError.unknownLocalAddress` for an address
    ///   without a port.
    public var port: Int {
        get async throws {
            guard let port = try await localAddress.port else { throw ChannelError.unknownLocalAddress }
            return port
        }
    }

    /// Listens and serves until graceful shutdown or cancellation.
    public func run() async throws {
        let server: NIOAsyncChannel<any Channel, Never>
        do {
            // Connections are wrapped when served, not when accepted: see ISO8583FrameDecoder.asyncChannel(accepted:).
            server = try await ServerBootstrap(group: eventLoopGroup)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelOption(.autoRead, value: false)
                .bind(host: configuration.host, port: configuration.port) { channel in
                    channel.eventLoop.makeSucceededFuture(channel)
                }
        } catch {
            bound.fail(error)
            throw error
        }
        guard let address = server.channel.localAddress else {
            let error = ChannelError.unknownLocalAddress
            bound.fail(error)
            try? await server.channel.close()
            throw error
        }
        bound.succeed(address)
        logger.info("issuer listening", metadata: ["address": "\(address)"])
        // Graceful shutdown closes the listening socket; the loop still takes the connections accepted before, so
        // each is closed properly (an accepted channel dropped unserved would trap in NIO's writer).
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await server.executeThenClose { connections in
                    for try await connection in connections {
                        group.addTask { await self.serve(connection) }
                    }
                }
                logger.info("issuer stopped accepting; finishing open connections")
            }
        } onGracefulShutdown: {
            server.channel.close(promise: nil)
        }
    }

    /// Reads one connection's messages and answers each in its own task, until the peer closes, graceful shutdown,
    /// or an oversized frame.
    private func serve(_ channel: any Channel) async {
        let logger = {
            var logger = self.logger
            logger[metadataKey: "peer"] = "\(channel.remoteAddress.map { "\($0)" } ?? "unknown")"
            return logger
        }()
        logger.debug("connection opened")
        do {
            let connection = try await ISO8583FrameDecoder.asyncChannel(accepted: channel, framing: configuration.framing)
            try await connection.executeThenClose { inbound, outbound in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await message in inbound.cancelOnGracefulShutdown() {
                        group.addTask { await self.answer(message, to: outbound, logger: logger) }
                    }
                }
            }
            logger.debug("connection closed")
        } catch let error as ISO8583Error {
            logger.warning("closing a connection on a bad frame", metadata: Logger.metadata(of: error))
        } catch {
            logger.notice("connection ended by an error", metadata: ["error": "\(type(of: error))"])
            channel.close(promise: nil)
        }
    }

    /// Decodes one message, asks the host and writes its answer, if any.
    private func answer(
        _ frame: ByteBuffer, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, logger: Logger
    ) async {
        let request: ISO8583Message
        do {
            request = try ISO8583Message(decoding: Array(frame.readableBytesView), using: configuration.specification)
        } catch {
            logger.warning("dropped a message that does not decode", metadata: Logger.metadata(of: error))
            return
        }
        guard let response = await issuer.handle(request, at: clock()) else {
            logger.debug("no answer", metadata: Logger.metadata(identifying: request))
            return
        }
        do {
            try await outbound.write(
                configuration.framing.frame(
                    response, using: configuration.specification, allocator: ByteBufferAllocator()))
        } catch let error as ISO8583Error {
            logger.error("could not encode an answer", metadata: Logger.metadata(of: error).merging(Logger.metadata(identifying: request)) { $1 })
        } catch {
            logger.notice("could not write an answer", metadata: Logger.metadata(identifying: request))
        }
    }
}
