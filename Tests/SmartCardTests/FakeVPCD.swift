import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// vpcd's side of the protocol, for tests: listens on an ephemeral port of 127.0.0.1, accepts the virtual card, and
/// writes frames as vpcd does (the length and the payload in two writes).
///
/// Every blocking call runs on a thread of its own, with a time limit, so a broken link fails a test instead of
/// hanging it or starving Swift's cooperative pool.
final class FakeVPCD: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The port the card should connect to.
    let port: UInt16
    private let listener: Int32

    /// Binds a port; with `listening` false, connections are refused until ``startListening()`` (the port stays
    /// reserved, so a test can start the card first, as when pcscd is not running yet).
    init(listening: Bool = true) throws {
        let listener = socket(AF_INET, Self.streamSocket, 0)
        guard listener >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && getsockname(listener, socketAddress, &length) == 0
            }
        }
        guard bound else {
            posixClose(listener)
            throw Failure(description: "bind: errno \(errno)")
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        if listening { try startListening() }
    }

    deinit { posixClose(listener) }

    /// Starts accepting connections.
    func startListening() throws {
        guard listen(listener, 4) == 0 else { throw Failure(description: "listen: errno \(errno)") }
    }

    /// Waits for the card to connect.
    func accept(within limit: Duration = .seconds(5)) async throws -> Connection {
        let listener = listener
        return try await Self.offThread {
            try Self.waitReadable(listener, within: limit, for: "a connection")
            let descriptor = posixAccept(listener)
            guard descriptor >= 0 else { throw Failure(description: "accept: errno \(errno)") }
            #if canImport(Darwin)
                var on: Int32 = 1
                _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
            return Connection(descriptor: descriptor)
        }
    }

    /// One accepted connection: the card on the other end.
    final class Connection: Sendable {
        private let descriptor: Int32

        init(descriptor: Int32) { self.descriptor = descriptor }

        deinit { posixClose(descriptor) }

        /// Sends a frame like vpcd: the 2-byte length, then (in a second write, unless `split` is false) the payload.
        func send(frame payload: [UInt8], split: Bool = true) async throws {
            guard payload.count <= 0xFFFF else { throw Failure(description: "a frame holds at most 65,535 bytes") }
            let length = [UInt8(payload.count >> 8 & 0xFF), UInt8(payload.count & 0xFF)]
            if split {
                try await send(raw: length)
                // Let the length leave as a segment of its own, as vpcd's two writes do.
                try await Task.sleep(for: .milliseconds(2))
                try await send(raw: payload)
            } else {
                try await send(raw: length + payload)
            }
        }

        /// Sends bytes as they are.
        func send(raw bytes: [UInt8]) async throws {
            let descriptor = descriptor
            try await FakeVPCD.offThread {
                var offset = 0
                while offset < bytes.count {
                    let written = bytes.withUnsafeBytes { raw in
                        posixSend(descriptor, raw.baseAddress?.advanced(by: offset), raw.count - offset)
                    }
                    guard written > 0 else { throw Failure(description: "send: errno \(errno)") }
                    offset += written
                }
            }
        }

        /// Receives one frame's payload from the card.
        func receiveFrame(within limit: Duration = .seconds(5)) async throws -> [UInt8] {
            let header = try await receive(count: 2, within: limit)
            return try await receive(count: Int(header[0]) << 8 | Int(header[1]), within: limit)
        }

        /// Waits until the card closes the connection; throws if bytes or nothing arrive instead.
        func expectClosed(within limit: Duration = .seconds(5)) async throws {
            let rest = try await receive(count: 1, within: limit, endOK: true)
            guard rest.isEmpty else { throw Failure(description: "expected the card to close, got a byte") }
        }

        /// Closes the connection, as vpcd does when pcscd stops.
        func close() {
            _ = shutdown(descriptor, Int32(SHUT_RDWR))
        }

        private func receive(count: Int, within limit: Duration, endOK: Bool = false) async throws -> [UInt8] {
            let descriptor = descriptor
            return try await FakeVPCD.offThread {
                var bytes: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: max(count, 1))
                while bytes.count < count {
                    try FakeVPCD.waitReadable(descriptor, within: limit, for: "\(count) bytes")
                    let received = chunk.withUnsafeMutableBytes {
                        recv(descriptor, $0.baseAddress, count - bytes.count, 0)
                    }
                    if received == 0 {
                        if endOK { return bytes }
                        throw Failure(
                            description: "the card closed the connection after \(bytes.count) of \(count) bytes")
                    }
                    guard received > 0 else { throw Failure(description: "recv: errno \(errno)") }
                    bytes += chunk[..<received]
                }
                return bytes
            }
        }
    }

    // MARK: - Plumbing

    #if canImport(Darwin)
        private static let streamSocket = SOCK_STREAM
    #else
        private static let streamSocket = Int32(SOCK_STREAM.rawValue)
    #endif

    static func waitReadable(_ descriptor: Int32, within limit: Duration, for what: String) throws {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&entry, 1, milliseconds) > 0 else { throw Failure(description: "timed out waiting for \(what)") }
    }

    /// Runs blocking socket calls on a thread of their own.
    static func offThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
        }
    }
}

private func posixAccept(_ listener: Int32) -> Int32 {
    accept(listener, nil, nil)
}

private func posixSend(_ descriptor: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
        send(descriptor, pointer, count, 0)
    #else
        send(descriptor, pointer, count, Int32(MSG_NOSIGNAL))
    #endif
}

private func posixClose(_ descriptor: Int32) {
    close(descriptor)
}
