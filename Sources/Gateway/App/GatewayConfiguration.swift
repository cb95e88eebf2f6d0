public import EMV
public import Foundation

/// How to run a gateway: where it listens, where it keeps its data, which issuer it talks to.
public struct GatewayConfiguration: Sendable {
    /// The address to listen on.
    public var hostname: String
    /// The port to listen on; 0 takes any free port.
    public var port: Int
    /// Where the SQLite file and the key file live.
    public var dataDirectory: URL
    /// A `postgres://` URL to use PostgreSQL instead of SQLite.
    public var databaseURL: String?
    /// The issuer host.
    public var issuer: IssuerConnection
    /// How long to wait for the issuer's answer before reversing.
    public var issuerTimeout: Duration
    /// How often the reversal sweep runs.
    public var reversalInterval: Duration
    /// How old a `processing` payment that an earlier run left behind (last changed before this node started) must
    /// be before the reversal sweep takes it as abandoned, fails it and reverses it; nil: the issuer timeout plus
    /// 30 s. A lone node may use zero: whatever it had in flight when it died is dead. Nodes sharing a database need
    /// more than the issuer timeout, since such a payment may be another node's live request. Payments started by
    /// this node itself are always given the issuer timeout plus 30 s.
    public var recoverAfter: Duration?
    /// The CA public keys readers get at prepare.
    public var caPublicKeys: CAPublicKeyList
    /// The current time (injected for tests).
    public var clock: @Sendable () -> Date
    /// Roots (PEM) that Apple Pay token signatures may chain to besides Apple Root CA - G3: a test token service's.
    public var applePayTrustedRootsPEM: [String] = []
    /// How far an Apple Pay token's signing time may lie from the clock: 5 minutes.
    public var applePaySigningTimeWindow: TimeInterval = 300
    /// The largest request body accepted, in bytes; a larger one is answered 413
    /// ``GatewayAPI/GatewayAPIError/Code/payloadTooLarge`` on every route.
    public var maxRequestBodySize: Int = Self.defaultMaxRequestBodySize

    /// How long an `Idempotency-Key` is kept and its answer replayed; older keys are deleted by the sweep and may
    /// be used again. 24 hours by default, as Stripe keeps its keys.
    public var idempotencyRetention: TimeInterval = 24 * 3600
    /// Whether the console's cookies are `Secure`: set it when clients reach the gateway over TLS (a proxy in front).
    public var secureCookies = false
    /// Whether webhook endpoints may be on this machine or a private network (tests and local development; off in
    /// production, where an admin could otherwise make the gateway probe its own network).
    public var allowsLocalWebhooks = false
    /// How long a server-driven reader may go without asking for work before it counts as disconnected (30 s).
    public var readerTimeout: TimeInterval = 30
    /// The SMTP relay the point of sale e-mails receipts through; nil: no e-mailed receipts.
    public var smtp: SMTPConfiguration?
    /// Starts in-process loopback readers for the point of sale (`tap serve --virtual-reader`); nil: none.
    public var virtualReaderLauncher: VirtualReaders.Launcher?
    /// How long a console session lasts without a request (30 minutes).
    public var consoleIdleTimeout: TimeInterval = ConsoleAccounts.defaultIdleTimeout
    /// bcrypt's cost for console passwords (12; tests lower it to keep fast).
    public var passwordHashCost: UInt8 = 12

    /// 64 KiB: the largest body the API takes, a sealed tap or an Apple Pay token, is a few KiB.
    public static let defaultMaxRequestBodySize = 64 * 1024

    /// A configuration: by default 127.0.0.1:8080, `./.tap`, SQLite, a 2 s issuer timeout.
    public init(
        hostname: String = "127.0.0.1", port: Int = 8080, dataDirectory: URL = URL(fileURLWithPath: ".tap"),
        databaseURL: String? = nil, issuer: IssuerConnection, issuerTimeout: Duration = .seconds(2),
        reversalInterval: Duration = .seconds(1), recoverAfter: Duration? = nil, caPublicKeys: CAPublicKeyList,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.hostname = hostname
        self.port = port
        self.dataDirectory = dataDirectory
        self.databaseURL = databaseURL
        self.issuer = issuer
        self.issuerTimeout = issuerTimeout
        self.reversalInterval = reversalInterval
        self.recoverAfter = recoverAfter
        self.caPublicKeys = caPublicKeys
        self.clock = clock
    }
}
