/// Where vpcd listens for its virtual card: a host name or address and a TCP port.
public struct VPCDEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// vpcd's default port (0x8C7B), for the first reader of a stock `reader.conf`.
    public static let defaultPort: UInt16 = 35963
    /// `127.0.0.1:35963`: pcscd with vpcd on this machine.
    public static let local = VPCDEndpoint(host: "127.0.0.1", port: defaultPort)

    /// Host name, IPv4 or IPv6 address (without brackets).
    public var host: String
    /// TCP port.
    public var port: UInt16

    /// Creates an endpoint.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`, `[IPv6]:PORT`, or a bare `HOST`, which takes ``defaultPort``.
    ///
    /// - Throws: ``VPCDError/Code/invalidEndpoint`` for an empty host or a port outside 1...65535.
    public init(parsing text: String) throws(VPCDError) {
        var host = Substring(text)
        var port = Self.defaultPort
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw Self.invalid(text) }
                port = try Self.port(rest.dropFirst(), in: text)
            }
        } else if let colon = host.lastIndex(of: ":"), host.firstIndex(of: ":") == colon {
            port = try Self.port(host[host.index(after: colon)...], in: text)
            host = host[..<colon]
        }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { throw Self.invalid(text) }
        self.init(host: String(host), port: port)
    }

    /// `host:port`, with brackets around an IPv6 address.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    private static func port(_ text: Substring, in whole: String) throws(VPCDError) -> UInt16 {
        guard let port = UInt16(text), port > 0 else { throw invalid(whole) }
        return port
    }

    private static func invalid(_ text: String) -> VPCDError {
        VPCDError(code: .invalidEndpoint, message: "'\(text)' is not HOST:PORT with a port from 1 to 65535")
    }
}
