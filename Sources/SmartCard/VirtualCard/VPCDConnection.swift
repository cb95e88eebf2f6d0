#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP connection from the virtual card to vpcd, used by one thread: blocking in spirit, but every wait is a
/// `poll` that also watches the link's ``Wakeup``, so a stop request ends it at once.
final class VPCDConnection {
    private let descriptor: Int32
    private let wakeup: Wakeup

    private init(descriptor: Int32, wakeup: Wakeup) {
        self.descriptor = descriptor
        self.wakeup = wakeup
        // The card answers each command with one write; Nagle would hold it back waiting for vpcd's ACK.
        POSIX.setOption(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        #if canImport(Darwin)
            POSIX.setOption(descriptor, SOL_SOCKET, SO_NOSIGPIPE, 1)
        #endif
    }

    deinit { close(descriptor) }

    /// Connects to `endpoint`, trying each address its host resolves to; nil when the wake-up came first.
    ///
    /// - Throws: ``VPCDError/Code/connectionFailed`` naming the last address's error (refused, unreachable, timed
    ///   out after `timeoutMilliseconds`), or ``VPCDError/Code/socketFailed``.
    static func connect(
        to endpoint: VPCDEndpoint, timeoutMilliseconds: Int32, wakeup: Wakeup
    ) throws(VPCDError) -> VPCDConnection? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = POSIX.streamSocket
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
        guard status == 0, let list else {
            throw VPCDError(
                code: .connectionFailed,
                message: "cannot resolve \(endpoint.host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var failure = VPCDError(code: .connectionFailed, message: "\(endpoint.host) has no address")
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let info = entry?.pointee {
            entry = info.ai_next
            let descriptor = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
            guard descriptor >= 0 else {
                failure = POSIX.error("socket")
                continue
            }
            POSIX.configure(descriptor)
            // From here the connection owns the descriptor and closes it on every path.
            let connection = VPCDConnection(descriptor: descriptor, wakeup: wakeup)
            do {
                if try connection.finishConnecting(info, endpoint: endpoint, timeoutMilliseconds: timeoutMilliseconds) {
                    return connection
                }
                return nil
            } catch {
                failure = error
            }
        }
        throw failure
    }

    /// Completes a non-blocking connect; false when woken first.
    private func finishConnecting(
        _ info: addrinfo, endpoint: VPCDEndpoint, timeoutMilliseconds: Int32
    ) throws(VPCDError) -> Bool {
        #if canImport(Darwin)
            let started = Darwin.connect(descriptor, info.ai_addr, info.ai_addrlen)
        #elseif canImport(Musl)
            let started = Musl.connect(descriptor, info.ai_addr, info.ai_addrlen)
        #else
            let started = Glibc.connect(descriptor, info.ai_addr, info.ai_addrlen)
        #endif
        if started == 0 { return true }
        guard errno == EINPROGRESS || errno == EINTR else {
            throw POSIX.error("connect to \(endpoint)", code: .connectionFailed)
        }
        let events = try POSIX.poll(
            [(descriptor, POSIX.writable), (wakeup.readEnd, POSIX.readable)], milliseconds: timeoutMilliseconds)
        guard let events else {
            throw POSIX.error("connect to \(endpoint)", ETIMEDOUT, code: .connectionFailed)
        }
        if events[1] != 0 { return false }
        var result: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &result, &length) == 0 else {
            throw POSIX.error("getsockopt(SO_ERROR)")
        }
        guard result == 0 else { throw POSIX.error("connect to \(endpoint)", result, code: .connectionFailed) }
        return true
    }

    /// Waits for bytes and reads what has arrived into `buffer`: the count, 0 when vpcd closed the connection, nil
    /// when woken.
    ///
    /// Quick-ACK mode is re-armed before every wait: vpcd writes a frame's length and its bytes in two writes, and
    /// with Nagle's algorithm on its side the second waits for our ACK of the first, which Linux would otherwise
    /// delay by some 40 ms on every command.
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(VPCDError) -> Int? {
        while true {
            #if os(Linux)
                POSIX.setOption(descriptor, Int32(IPPROTO_TCP), TCP_QUICKACK, 1)
            #endif
            let events = try POSIX.poll(
                [(descriptor, POSIX.readable), (wakeup.readEnd, POSIX.readable)], milliseconds: -1)
            if let events, events[1] != 0 { return nil }
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            switch errno {
            case EAGAIN, EWOULDBLOCK, EINTR: continue
            case ECONNRESET: return 0
            default: throw POSIX.error("recv")
            }
        }
    }

    /// Writes all of `bytes`; false when woken before they were all written.
    ///
    /// - Throws: ``VPCDError/Code/connectionClosed`` when vpcd is gone, ``VPCDError/Code/socketFailed`` otherwise.
    func send(_ bytes: [UInt8]) throws(VPCDError) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                #if canImport(Darwin)
                    Darwin.send(descriptor, raw.baseAddress?.advanced(by: offset), raw.count - offset, POSIX.sendFlags)
                #elseif canImport(Musl)
                    Musl.send(descriptor, raw.baseAddress?.advanced(by: offset), raw.count - offset, POSIX.sendFlags)
                #else
                    Glibc.send(descriptor, raw.baseAddress?.advanced(by: offset), raw.count - offset, POSIX.sendFlags)
                #endif
            }
            if written > 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                let events = try POSIX.poll(
                    [(descriptor, POSIX.writable), (wakeup.readEnd, POSIX.readable)], milliseconds: -1)
                if let events, events[1] != 0 { return false }
            case EPIPE, ECONNRESET:
                throw POSIX.error("send", code: .connectionClosed)
            default:
                throw POSIX.error("send")
            }
        }
        return true
    }
}
