import Foundation
public import ISO8583
import Issuer
public import Logging
public import NIOCore
import NIOPosix
public import ServiceLifecycle

/// An ``IssuerLink`` over TCP to a separate issuer host (`tap issuer`): ISO 8583 messages with a two-byte length
/// prefix on one or a few persistent connections, many requests in flight on each.
///
/// ```swift
/// let link = TCPIssuerLink(configuration: .init(host: "127.0.0.1", port: 5000), logger: logger)
/// // run it in the service group, before the services that send through it:
/// let group = ServiceGroup(services: [link, server], gracefulShutdownSignals: [.sigterm], logger: logger)
/// let response = try await link.send(request, timeout: .seconds(5))
/// ```
///
/// ``run()`` keeps the connections open, reconnecting with backoff when one is refused or lost. Requests are spread
/// over the open connections; each waits for the response with the same MTI response class, STAN (field 11),
/// terminal id (field 41) and RRN (field 37), so answers may come in any order. A request sent while no connection is
/// open waits for one until its timeout (then ``IssuerLinkError/unavailable``); once written, the timeout gives
/// ``IssuerLinkError/timedOut``, and the loss of its connection ``IssuerLinkError/unavailable``. A response that comes
/// after its request gave up is dropped and logged by MTI, STAN and terminal only. On graceful shutdown the link
/// refuses new requests, waits for those in flight (each until its timeout at most), then closes.
public final class TCPIssuerLink: IssuerLink, Service {
    /// Where the issuer is and how to talk to it.
    public struct Configuration: Sendable {
        /// The issuer's host name or address.
        public var host: String
        /// The issuer's TCP port.
        public var port: Int
        /// How many connections to keep open, at least 1.
        public var connections: Int
        /// The message layout, ``ISO8583/Specification/contactless`` by default.
        public var specification: Specification
        /// The length prefix and the longest message accepted.
        public var framing: ISO8583Framing
        /// How long one connection attempt may take.
        public var connectTimeout: Duration
        /// The wait before the first reconnection attempt; it doubles up to ``maximumReconnectDelay``.
        public var reconnectDelay: Duration
        /// The longest wait between reconnection attempts.
        public var maximumReconnectDelay: Duration

        /// Creates a configuration.
        public init(
            host: String, port: Int, connections: Int = 1, specification: Specification = .contactless,
            framing: ISO8583Framing = ISO8583Framing(), connectTimeout: Duration = .seconds(5),
            reconnectDelay: Duration = .milliseconds(50), maximumReconnectDelay: Duration = .seconds(2)
        ) {
            self.host = host
            self.port = port
            self.connections = max(1, connections)
            self.specification = specification
            self.framing = framing
            self.connectTimeout = connectTimeout
            self.reconnectDelay = reconnectDelay
            self.maximumReconnectDelay = maximumReconnectDelay
        }
    }

    /// Where the issuer is and how to talk to it.
    public let configuration: Configuration
    private let logger: Logger
    private let eventLoopGroup: any EventLoopGroup
    private let requests = PendingRequests()

    /// Creates a link; nothing connects until ``run()``.
    public init(
        configuration: Configuration, logger: Logger,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.configuration = configuration
        self.logger = logger
        self.eventLoopGroup = eventLoopGroup
    }

    /// The number of requests waiting for an answer or a connection.
    public var requestsInFlight: Int { requests.count }

    /// Keeps the connections open until graceful shutdown (after the requests in flight are answered or timed out)
    /// or cancellation.
    public func run() async throws {
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                for _ in 0..<configuration.connections {
                    group.addTask { await self.maintainConnection() }
                }
                await requests.drained()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.requests.beginDraining()
        }
        logger.info("issuer link stopped")
    }

    /// Sends `request` on an open connection (or the next one to open) and waits for its response.
    public func send(_ request: ISO8583Message, timeout: Duration) async throws(IssuerLinkError) -> ISO8583Message {
        guard let key = ResponseKey(request: request) else {
            throw IssuerLinkError(
                code: .invalidRequest, message: "a \(request.mti) without a STAN and terminal id cannot be matched")
        }
        let frame: ByteBuffer
        do {
            frame = try configuration.framing.frame(
                request, using: configuration.specification, allocator: ByteBufferAllocator())
        } catch {
            throw IssuerLinkError(code: .invalidRequest, message: "the \(request.mti) does not encode: \(error.code)")
        }
        let eventLoop = eventLoopGroup.next()
        let id: Int
        let promise: EventLoopPromise<ISO8583Message>
        let writer: PendingRequests.Writer?
        switch requests.register(key, frame: frame, eventLoop: eventLoop) {
        case .refused(let error): throw error
        case .registered(let registeredID, let registeredPromise, let registeredWriter):
            (id, promise, writer) = (registeredID, registeredPromise, registeredWriter)
        }
        let requests = self.requests
        requests.setTimeout(
            eventLoop.scheduleTask(in: TimeAmount(timeout)) { requests.expire(key, id: id, after: timeout) },
            for: key, id: id)
        let response: ISO8583Message
        do {
            response = try await withTaskCancellationHandler {
                if let writer {
                    do {
                        try await writer.write(frame)
                    } catch {
                        requests.fail(
                            key, id: id,
                            with: IssuerLinkError(code: .unavailable, message: "the connection to the issuer closed"))
                    }
                }
                return try await promise.futureResult.get()
            } onCancel: {
                requests.fail(key, id: id, with: IssuerLinkError(code: .timedOut, message: "the request was cancelled"))
            }
        } catch let error as IssuerLinkError {
            throw error
        } catch {
            throw IssuerLinkError(code: .unavailable, message: "the issuer link failed: \(type(of: error))")
        }
        return try response.checkedResponse(to: request)
    }

    /// Connects, serves the connection until it closes, and reconnects with backoff, until cancelled.
    private func maintainConnection() async {
        var delay = configuration.reconnectDelay
        var failures = 0
        while !Task.isCancelled {
            do {
                let channel = try await connect()
                failures = 0
                delay = configuration.reconnectDelay
                try await serve(channel)
                if !Task.isCancelled { logger.notice("the issuer closed a connection; reconnecting") }
            } catch {
                guard !Task.isCancelled else { return }
                failures += 1
                // One line for the first failure and then one per 50, not one per attempt.
                if failures == 1 || failures % 50 == 0 {
                    logger.warning(
                        "cannot connect to the issuer",
                        metadata: [
                            "address": "\(configuration.host):\(configuration.port)", "attempts": "\(failures)",
                            "error": "\(type(of: error))",
                        ])
                }
            }
            do {
                try await Task.sleep(for: delay)
            } catch {
                return
            }
            delay = min(delay * 2, configuration.maximumReconnectDelay)
        }
    }

    /// A new connection with the framing decoder in its pipeline.
    private func connect() async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        let framing = configuration.framing
        return try await ClientBootstrap(group: eventLoopGroup)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: configuration.host, port: configuration.port) { channel in
                ISO8583FrameDecoder.asyncChannel(channel, framing: framing)
            }
    }

    /// Offers the connection to senders, writes the requests that waited for one, and hands each response to its
    /// request until the connection closes or the task is cancelled.
    private func serve(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async throws {
        let id = requests.makeConnectionID()
        logger.debug("connected to the issuer", metadata: ["connection": "\(id)"])
        defer { requests.connectionClosed(id) }
        try await channel.executeThenClose { inbound, outbound in
            for frame in requests.connectionOpened(id, writer: outbound) {
                try await outbound.write(frame)
            }
            for try await frame in inbound {
                receive(frame)
            }
        }
    }

    /// Decodes one response and completes its request; drops (and logs) what matches none.
    private func receive(_ frame: ByteBuffer) {
        let response: ISO8583Message
        do {
            response = try ISO8583Message(
                decoding: Array(frame.readableBytesView), using: configuration.specification)
        } catch {
            logger.warning(
                "dropped a response that does not decode",
                metadata: Logger.metadata(of: error))
            return
        }
        guard let key = ResponseKey(response: response), requests.complete(key, with: response) else {
            logger.notice("dropped a late or unknown response", metadata: Logger.metadata(identifying: response))
            return
        }
    }
}
