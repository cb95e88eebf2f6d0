import EMV
import Foundation
#if canImport(Glibc)
    import Glibc
#endif
public import GatewayAPI
import _SQLStorage

/// Merchants' webhook endpoints and the durable outbox of their deliveries, in the gateway's database.
///
/// An event is written in the same transaction as the change it tells of (``enqueue(_:merchantId:on:now:)``), one
/// delivery per active endpoint; ``WebhookDispatcher`` sends due deliveries and records each attempt, so a delivery
/// survives a restart and is retried with exponential backoff until it is answered 2xx or runs out of attempts.
/// Signing secrets are sealed at rest under the gateway's keys.
public struct WebhookOutbox: Sendable {
    /// Attempts before a delivery is given up.
    public static let maximumAttempts = 8
    /// The wait before attempt n + 1: 10 s × 4ⁿ⁻¹ (10 s, 40 s, 160 s, … about 45 h for the eighth).
    public static func backoff(afterAttempt attempt: Int) -> TimeInterval { 10 * pow(4, Double(max(attempt, 1) - 1)) }

    let database: any SQLDatabase
    let keys: GatewayKeys
    /// Whether endpoints on this machine or a private network are allowed (tests and local development only: else an
    /// admin could make the gateway probe its own network).
    let allowsLocalEndpoints: Bool

    public init(database: any SQLDatabase, keys: GatewayKeys, allowsLocalEndpoints: Bool = false) {
        self.database = database
        self.keys = keys
        self.allowsLocalEndpoints = allowsLocalEndpoints
    }

    /// Whether `host` is, or resolves to, this machine or a private network (a public name pointing inside counts):
    /// the check at registration and again before each delivery, which catches a name re-pointed since.
    static func reachesLocal(_ host: String) async -> Bool {
        if isLocal(host) { return true }
        return await Task.detached { resolvedAddresses(of: host).contains(where: isLocal) }.value
    }

    /// The addresses `host` resolves to (getaddrinfo, blocking: run it off the cooperative pool); none when it does
    /// not resolve.
    static func resolvedAddresses(of host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(
                current.pointee.ai_addr, current.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0,
                NI_NUMERICHOST) == 0
            {
                addresses.append(
                    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    /// Whether `host` is written as this machine or a private, link-local or unspecified address.
    static func isLocal(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: ["[", "]"])
        if bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" || bare == "::" { return true }
        if bare.hasPrefix("fe80:") || bare.hasPrefix("fc") || bare.hasPrefix("fd") { return true }
        let octets = bare.split(separator: ".").compactMap { Int($0) }
        guard octets.count == 4, bare.split(separator: ".").count == 4 else { return false }
        switch (octets[0], octets[1]) {
        case (0, _), (10, _), (127, _), (169, 254), (192, 168): return true
        case (172, 16...31), (100, 64...127): return true
        default: return false
        }
    }

    /// An endpoint as the console lists it.
    public struct Endpoint: Sendable, Hashable {
        public var id: String
        public var url: String
        public var createdAt: Date
        public var disabledAt: Date?
    }

    /// One delivery and its attempts, for the console's log.
    public struct Delivery: Sendable, Hashable {
        public var id: Int
        public var eventId: String
        public var type: String
        public var state: String
        public var attempts: Int
        public var lastStatus: Int?
        public var lastError: String?
        public var nextAttemptAt: Date?
        public var createdAt: Date
    }

    // MARK: - Endpoints

    /// Registers `url` for `merchantId`; returns the endpoint and its signing secret (`whsec_…`), shown this once.
    /// - Throws: ``DomainError`` for a URL that is not https (http only to this machine).
    public func addEndpoint(merchantId: String, url: String, actor: String, now: Date) async throws
        -> (Endpoint, String)
    {
        guard let parsed = URL(string: url), let host = parsed.host?.lowercased(),
            let scheme = parsed.scheme?.lowercased()
        else { throw DomainError("an endpoint's URL is an absolute https URL") }
        if await Self.reachesLocal(host) {
            guard allowsLocalEndpoints, scheme == "http" || scheme == "https" else {
                throw DomainError("an endpoint may not be this machine or a private network address")
            }
        } else {
            guard scheme == "https" else { throw DomainError("an endpoint's URL is https") }
        }
        let endpoint = Endpoint(id: EntityID.make("we"), url: url, createdAt: now, disabledAt: nil)
        let secret = "whsec_" + ConsoleAccounts.randomToken()
        let sealed = keys.seal(Array(secret.utf8), authenticating: Array(endpoint.id.utf8))
        try await database.transaction { executor in
            try await executor.query(
                """
                INSERT INTO webhook_endpoints (id, merchant_id, url, sealed_secret, created_at)
                VALUES ($1, $2, $3, $4, $5)
                """, [.text(endpoint.id), .text(merchantId), .text(url), .blob(sealed), .integer(now.millis)])
            try await AuditLog.record(
                on: executor, at: now, actor: actor, entity: "webhook_endpoint", id: endpoint.id, action: "created",
                detail: url)
        }
        return (endpoint, secret)
    }

    public func endpoints(merchantId: String) async throws -> [Endpoint] {
        try await database.query(
            "SELECT id, url, created_at, disabled_at FROM webhook_endpoints WHERE merchant_id = $1 ORDER BY created_at",
            [.text(merchantId)]
        ).map { row in
            Endpoint(
                id: try row.text("id"), url: try row.text("url"),
                createdAt: Date(millis: try row.integer("created_at")),
                disabledAt: try row.optionalInteger("disabled_at").map(Date.init(millis:)))
        }
    }

    /// Disables the merchant's endpoint: nothing more is sent to it, its pending deliveries are canceled.
    public func disable(endpointId: String, merchantId: String, actor: String, now: Date) async throws {
        try await database.transaction { executor in
            let changed = try await executor.query(
                """
                UPDATE webhook_endpoints SET disabled_at = $1
                WHERE id = $2 AND merchant_id = $3 AND disabled_at IS NULL RETURNING id
                """, [.integer(now.millis), .text(endpointId), .text(merchantId)])
            guard !changed.isEmpty else { return }
            try await executor.query(
                """
                UPDATE webhook_deliveries SET state = 'canceled', next_attempt_at = NULL
                WHERE endpoint_id = $1 AND state = 'pending'
                """, [.text(endpointId)])
            try await AuditLog.record(
                on: executor, at: now, actor: actor, entity: "webhook_endpoint", id: endpointId, action: "disabled",
                detail: "")
        }
    }

    /// The endpoint's deliveries, newest first.
    public func deliveries(endpointId: String, merchantId: String, limit: Int = 50) async throws -> [Delivery] {
        try await database.query(
            """
            SELECT d.id, d.event_id, e.type, d.state, d.attempts, d.last_status, d.last_error, d.next_attempt_at,
                d.created_at
            FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
            WHERE d.endpoint_id = $1 AND d.merchant_id = $2 ORDER BY d.id DESC LIMIT $3
            """, [.text(endpointId), .text(merchantId), .integer(limit)]
        ).map { row in
            Delivery(
                id: try row.integer("id"), eventId: try row.text("event_id"), type: try row.text("type"),
                state: try row.text("state"), attempts: try row.integer("attempts"),
                lastStatus: try row.optionalInteger("last_status"), lastError: try row.optionalText("last_error"),
                nextAttemptAt: try row.optionalInteger("next_attempt_at").map(Date.init(millis:)),
                createdAt: Date(millis: try row.integer("created_at")))
        }
    }

    // MARK: - The outbox

    /// Writes `event` for every active endpoint of `merchantId`, inside the caller's transaction.
    static func enqueue(_ event: WebhookEvent, merchantId: String, on executor: any SQLExecutor, now: Date)
        async throws
    {
        let endpoints = try await executor.query(
            "SELECT id FROM webhook_endpoints WHERE merchant_id = $1 AND disabled_at IS NULL", [.text(merchantId)])
        guard !endpoints.isEmpty else { return }
        let payload = String(decoding: try JSONEncoder.gatewayAPI.encode(event), as: UTF8.self)
        try await executor.query(
            "INSERT INTO webhook_events (id, merchant_id, type, payload, created_at) VALUES ($1, $2, $3, $4, $5)",
            [.text(event.id), .text(merchantId), .text(event.type.rawValue), .text(payload), .integer(now.millis)])
        for endpoint in endpoints {
            try await executor.query(
                """
                INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, state, next_attempt_at, created_at)
                VALUES ($1, $2, $3, 'pending', $4, $4)
                """, [.text(event.id), .text(try endpoint.text("id")), .text(merchantId), .integer(now.millis)])
        }
    }

    /// A test event to one endpoint (the console's "Send test event").
    public func sendTestEvent(endpointId: String, merchantId: String, now: Date) async throws {
        let event = WebhookEvent(id: EntityID.make("evt"), type: .test, createdAt: now, data: .init())
        try await database.transaction { executor in
            let payload = String(decoding: try JSONEncoder.gatewayAPI.encode(event), as: UTF8.self)
            try await executor.query(
                "INSERT INTO webhook_events (id, merchant_id, type, payload, created_at) VALUES ($1, $2, $3, $4, $5)",
                [.text(event.id), .text(merchantId), .text(event.type.rawValue), .text(payload), .integer(now.millis)])
            try await executor.query(
                """
                INSERT INTO webhook_deliveries (event_id, endpoint_id, merchant_id, state, next_attempt_at, created_at)
                SELECT $1, id, merchant_id, 'pending', $3, $3 FROM webhook_endpoints
                WHERE id = $2 AND merchant_id = $4 AND disabled_at IS NULL
                """, [.text(event.id), .text(endpointId), .integer(now.millis), .text(merchantId)])
        }
    }

    /// A delivery ready to send.
    struct Due: Sendable {
        var id: Int
        var attempts: Int
        var url: String
        var secret: String
        var payload: String
    }

    /// Deliveries due at `now`, oldest first, each claimed for a minute (another node does not send it meanwhile).
    func due(now: Date, limit: Int) async throws -> [Due] {
        try await database.transaction { executor in
            let rows = try await executor.query(
                """
                SELECT d.id, d.attempts, w.id AS endpoint_id, w.url, w.sealed_secret, e.payload
                FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
                JOIN webhook_events e ON e.id = d.event_id
                WHERE d.state = 'pending' AND d.next_attempt_at <= $1 AND w.disabled_at IS NULL
                ORDER BY d.next_attempt_at LIMIT $2
                """ + executor.dialect.forUpdate, [.integer(now.millis), .integer(limit)])
            var due: [Due] = []
            for row in rows {
                let id = try row.integer("id")
                try await executor.query(
                    "UPDATE webhook_deliveries SET next_attempt_at = $1 WHERE id = $2",
                    [.integer(now.addingTimeInterval(60).millis), .integer(id)])
                let secret = try keys.open(
                    try row.blob("sealed_secret"), authenticating: Array(try row.text("endpoint_id").utf8))
                due.append(
                    Due(
                        id: id, attempts: try row.integer("attempts"), url: try row.text("url"),
                        secret: String(decoding: secret, as: UTF8.self), payload: try row.text("payload")))
            }
            return due
        }
    }

    /// Records an attempt: delivered on a 2xx, else pending with backoff, or failed after the last attempt.
    func record(
        _ delivery: Due, at: Date, status: Int?, error: String?, response: String?, duration: TimeInterval
    ) async throws {
        let attempt = delivery.attempts + 1
        let delivered = status.map { (200..<300).contains($0) } ?? false
        let state = delivered ? "delivered" : attempt >= Self.maximumAttempts ? "failed" : "pending"
        let next = state == "pending" ? at.addingTimeInterval(Self.backoff(afterAttempt: attempt)).millis : nil
        try await database.transaction { executor in
            try await executor.query(
                """
                UPDATE webhook_deliveries SET state = $1, attempts = $2, next_attempt_at = $3, last_status = $4,
                    last_error = $5, delivered_at = $6 WHERE id = $7
                """,
                [
                    .text(state), .integer(attempt), .integer(next), .integer(status), .text(error),
                    .integer(delivered ? at.millis : nil), .integer(delivery.id),
                ])
            try await executor.query(
                """
                INSERT INTO webhook_attempts (delivery_id, attempt, at, status, error, response, duration_ms)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """,
                [
                    .integer(delivery.id), .integer(attempt), .integer(at.millis), .integer(status), .text(error),
                    .text(response.map { String($0.prefix(500)) }), .integer(Int(duration * 1000)),
                ])
        }
    }
}

extension WebhookEvent.EventType {
    /// The event a payment's new status makes; nil for statuses that are not news (processing, requiresPIN).
    init?(status: PaymentStatus) {
        switch status {
        case .succeeded: self = .paymentSucceeded
        case .requiresCapture: self = .paymentRequiresCapture
        case .declined: self = .paymentDeclined
        case .failed: self = .paymentFailed
        case .canceled: self = .paymentCanceled
        case .processing, .requiresPIN: return nil
        }
    }
}
