#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX calls the vpcd link makes, with errno turned into ``VPCDError``: the link needs one TCP client
/// socket and a wake-up pipe, not an event loop.
enum POSIX {
    /// Poll events as `pollfd` stores them.
    static let readable = Int16(POLLIN)
    static let writable = Int16(POLLOUT)

    #if canImport(Glibc)
        // Glibc imports the socket types as an enum, musl and Darwin as integers.
        static let streamSocket = Int32(SOCK_STREAM.rawValue)
    #else
        static let streamSocket = SOCK_STREAM
    #endif
    #if canImport(Darwin)
        // Darwin has no MSG_NOSIGNAL; the connection sets SO_NOSIGPIPE instead.
        static let sendFlags: Int32 = 0
    #else
        static let sendFlags = Int32(MSG_NOSIGNAL)
    #endif

    /// The error for a failed call, with errno's number and text.
    static func error(_ call: String, _ number: Int32 = errno, code: VPCDError.Code = .socketFailed) -> VPCDError {
        VPCDError(code: code, message: "\(call) failed: \(describe(number))")
    }

    /// `strerror` text and number, e.g. "Connection refused (errno 111)".
    static func describe(_ number: Int32) -> String {
        "\(String(cString: strerror(number))) (errno \(number))"
    }

    /// Makes a descriptor non-blocking and closed on exec (a child such as a test's pcscd must not inherit it).
    static func configure(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
    }

    /// Sets an integer socket option; failures are returned, not thrown (options are tuning, not correctness).
    @discardableResult
    static func setOption(_ descriptor: Int32, _ level: Int32, _ name: Int32, _ value: Int32) -> Bool {
        var value = value
        return setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// Waits until one of `descriptors` has one of its `events`, or `milliseconds` pass (-1: no limit); returns
    /// the `revents` of each, or nil on time-out. Interrupted waits are resumed with the full time again (the link's
    /// waits are either unlimited or short back-offs).
    static func poll(_ descriptors: [(Int32, Int16)], milliseconds: Int32) throws(VPCDError) -> [Int16]? {
        var fds = descriptors.map { pollfd(fd: $0.0, events: $0.1, revents: 0) }
        while true {
            #if canImport(Darwin)
                let count = Darwin.poll(&fds, nfds_t(fds.count), milliseconds)
            #elseif canImport(Musl)
                let count = Musl.poll(&fds, nfds_t(fds.count), milliseconds)
            #else
                let count = Glibc.poll(&fds, nfds_t(fds.count), milliseconds)
            #endif
            if count > 0 { return fds.map(\.revents) }
            if count == 0 { return nil }
            if errno != EINTR { throw error("poll") }
        }
    }
}
