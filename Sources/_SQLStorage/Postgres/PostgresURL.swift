import Foundation

/// A PostgreSQL connection URL, `postgres://user:password@host:port/database?sslmode=…`, as `--database` takes it.
///
/// The port defaults to 5432 and the database to the user's name (PostgreSQL's own default). TLS follows `sslmode`
/// (`disable`, `prefer`, `require`); without one it is off for a loopback host (127.0.0.0/8, ::1, localhost) and
/// required for any other, so credentials and card data never cross a network in the clear by default.
/// The description hides the password.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// Whether the connection uses TLS.
    public enum TLSMode: String, Sendable, Hashable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, plain TCP otherwise.
        case prefer
        /// TLS or no connection.
        case require
    }

    /// The server's host name or address.
    public var host: String
    /// The server's TCP port.
    public var port: Int
    /// The role to log in as.
    public var username: String
    /// The role's password; nil for trust or peer authentication.
    public var password: String?
    /// The database to connect to.
    public var database: String
    /// Whether to use TLS.
    public var tls: TLSMode

    /// Parses `url`.
    /// - Throws: ``StorageError/Code/connectionFailed`` naming what is wrong, never the password.
    public init(_ url: String) throws(StorageError) {
        guard let components = URLComponents(string: url),
            let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql"
        else {
            throw StorageError(
                .connectionFailed, "a PostgreSQL URL has the form postgres://user:password@host:port/database")
        }
        guard let host = components.host.map(Self.unbracketed), !host.isEmpty else {
            throw StorageError(.connectionFailed, "the PostgreSQL URL has no host")
        }
        guard let username = components.user.flatMap({ $0.removingPercentEncoding }), !username.isEmpty else {
            throw StorageError(.connectionFailed, "the PostgreSQL URL has no user name")
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else {
            throw StorageError(.connectionFailed, "the PostgreSQL URL's port \(port) is out of range")
        }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/"), let database = path.removingPercentEncoding else {
            throw StorageError(.connectionFailed, "the PostgreSQL URL's path is not one database name")
        }
        var tls: TLSMode = Self.isLoopback(host) ? .disable : .require
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode" else {
                throw StorageError(.connectionFailed, "the PostgreSQL URL's parameter \(item.name) is not supported")
            }
            guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                throw StorageError(.connectionFailed, "sslmode must be disable, prefer or require")
            }
            tls = mode
        }
        self.host = host
        self.port = port
        self.username = username
        self.password = components.password.flatMap { $0.removingPercentEncoding }
        self.database = database.isEmpty ? username : database
        self.tls = tls
    }

    /// The same server and credentials with another database.
    public func with(database: String) -> PostgresURL {
        var url = self
        url.database = database
        return url
    }

    /// `postgres://user:***@host:port/database`: the password never shows.
    public var description: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)?sslmode=\(tls)"
    }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    private static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
