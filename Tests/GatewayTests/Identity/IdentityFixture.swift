import _SQLStorage
import CardEmulator
import ContactlessTesting
import EMV
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing
import TestMode

/// Every log line the application wrote, rendered with its metadata.
final class LogRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var text: String { lock.withLock { lines.joined(separator: "\n") } }

    var logger: Logger {
        var logger = Logger(label: "identity-tests") { _ in RecordingHandler(recorder: self) }
        logger.logLevel = .trace
        return logger
    }

    struct RecordingHandler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            recorder.append("\(event.level) \(event.message) \(all)")
        }
    }
}

/// An in-memory gateway with the identity side: a migrated SQLite database, fresh keys, a hand-moved clock, the
/// repositories and a router built from the controllers behind the Authenticator and ProblemMiddleware.
struct IdentityFixture {
    let clock = TestClock()
    let database: any SQLDatabase
    let keys: GatewayKeys
    let tokens: ReaderTokenAuthority
    let merchants: MerchantRepository
    let users: MerchantUserRepository
    let apiKeys: APIKeyRepository
    let devices: DeviceRepository
    let logs = LogRecorder()

    /// Runs `body` with a fixture on a fresh migrated database of `kind` (``TestDatabases``), its service running.
    static func with<Result: Sendable>(
        _ kind: TestDatabases.Kind, keys: GatewayKeys = .generate(), _ body: (IdentityFixture) async throws -> Result
    ) async throws -> Result {
        try await TestDatabases.with(kind) { database in
            try await body(await IdentityFixture(database: database, keys: keys))
        }
    }

    init(database: any SQLDatabase, keys: GatewayKeys) async {
        self.database = database
        self.keys = keys
        tokens = await ReaderTokenAuthority(keys: keys, clock: clock.function)
        merchants = MerchantRepository(database: database)
        users = MerchantUserRepository(database: database)
        apiKeys = APIKeyRepository(database: database)
        devices = DeviceRepository(database: database)
    }

    /// A merchant with an admin and a staff user and an API key.
    struct Seeded {
        var merchant: Merchant
        var admin: MerchantUser
        var staff: MerchantUser
        var secret: APIKey.Secret
    }

    func seedMerchant(_ name: String = "Corner Shop") async throws -> Seeded {
        let merchant = try await merchants.create(
            name: name, country: .deu, currency: .eur, categoryCode: "5411", actor: "test", now: clock.now)
        let admin = try await users.add(
            merchantId: merchant.id, email: "owner@\(merchant.id).example", role: .admin, actor: "test", now: clock.now)
        let staff = try await users.add(
            merchantId: merchant.id, email: "clerk@\(merchant.id).example", role: .staff, actor: "test", now: clock.now)
        let (_, secret) = try await apiKeys.create(merchantId: merchant.id, actor: "test", now: clock.now)
        return Seeded(merchant: merchant, admin: admin, staff: staff, secret: secret)
    }

    func readerToken(
        _ seeded: Seeded, admin: Bool = true, allowsRelinking: Bool = false, lifetime: TimeInterval = 3600
    ) async throws -> String {
        let user = admin ? seeded.admin : seeded.staff
        return try await tokens.issueReaderToken(
            merchantId: seeded.merchant.id, userId: user.id, isAdmin: admin, allowsRelinking: allowsRelinking,
            lifetime: lifetime
        ).token
    }

    /// The caller a reader token of `seeded`'s admin or staff user stands for.
    func caller(_ seeded: Seeded, admin: Bool = true, allowsRelinking: Bool = false) -> Caller {
        Caller(
            credential: .readerToken, merchantId: seeded.merchant.id,
            userId: admin ? seeded.admin.id : seeded.staff.id, isAdmin: admin, allowsRelinking: allowsRelinking)
    }

    /// A seeded merchant whose admin accepted the terms.
    func linkedMerchant(_ name: String) async throws -> Seeded {
        let seeded = try await seedMerchant(name)
        _ = try await merchants.link(by: caller(seeded), deviceId: "setup-device", relink: false, now: clock.now)
        return seeded
    }

    func application() throws -> some ApplicationProtocol {
        let router = Router(context: GatewayRequestContext.self)
        // First, so it sees what the caller sees (problems included).
        if let recorder = APISampleRecorder.shared { router.add(middleware: APISampleMiddleware(recorder: recorder)) }
        router.add(middleware: ProblemMiddleware())
        let authenticated = router.group().add(middleware: Authenticator(apiKeys: apiKeys, tokens: tokens))
        ReaderTokenController(users: users, tokens: tokens).addRoutes(to: authenticated)
        AccountLinkController(merchants: merchants, clock: clock.function).addRoutes(to: authenticated)
        DeviceController(
            merchants: merchants, devices: devices, keys: keys, tokens: tokens,
            policy: ReaderConfigurationPolicy(caPublicKeys: try CardProfile.testCAPublicKeys), clock: clock.function
        ).addRoutes(to: authenticated)
        // Port 0: a live test gets a free port.
        return Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logs.logger)
    }
}

extension HTTPFields {
    static func bearer(_ credential: String) -> HTTPFields {
        [.authorization: "Bearer \(credential)", .contentType: "application/json"]
    }
}

extension TestResponse {
    /// The body as a problem.
    var problem: Problem? { try? JSONDecoder.gatewayAPI.decode(Problem.self, from: Data(body.readableBytesView)) }
    /// The body decoded as `T`.
    func decoded<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder.gatewayAPI.decode(T.self, from: Data(body.readableBytesView))
    }
    var text: String { String(decoding: body.readableBytesView, as: UTF8.self) }
}

extension Encodable {
    /// The API's JSON bytes, for a request body.
    var jsonBody: ByteBuffer { ByteBuffer(bytes: (try? JSONEncoder.gatewayAPI.encode(self)) ?? Data()) }
}

/// Writes every HTTP exchange of the gateway tests, one JSON file each, into the directory named by
/// `CONTACTLESS_API_SAMPLES` (scripts/test sets it), so scripts/test.d/70-openapi.sh can check real traffic against
/// openapi.yaml. Unset, nothing is recorded.
///
/// A file holds the test, method, path, query, the request's content type and idempotency key, the kind of
/// credential (`apiKey`, `readerToken`, `readerSession`, `other` or `none`: never the credential itself), the
/// request body, the status, the response headers and the response body.
struct APISampleRecorder: Sendable {
    static let variable = "CONTACTLESS_API_SAMPLES"
    /// The recorder the environment asks for, if any.
    static let shared: APISampleRecorder? = ProcessInfo.processInfo.environment[variable].flatMap { path in
        path.isEmpty ? nil : APISampleRecorder(directory: URL(fileURLWithPath: path, isDirectory: true))
    }

    let directory: URL

    /// The running test's name, for the report.
    static var currentTest: String {
        guard let test = Test.current else { return "unknown" }
        return "\(test.sourceLocation.fileName): \(test.displayName ?? test.name)"
    }

    private struct Exchange: Encodable {
        var test: String
        var source: String
        var method: String
        var path: String
        var query: String?
        var contentType: String?
        var idempotencyKey: String?
        var credential: String
        var requestBody: String?
        var status: Int
        var responseHeaders: [String: String]
        var responseBody: String
    }

    /// Writes one exchange; a failure to write is reported as a test issue, never thrown into the test.
    func record(
        test: String, source: String, method: HTTPRequest.Method, uri: String, requestHeaders: HTTPFields,
        requestBody: ByteBuffer?, status: HTTPResponse.Status, responseHeaders: HTTPFields, responseBody: ByteBuffer
    ) {
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var headers: [String: String] = [:]
        for field in responseHeaders { headers[field.name.canonicalName] = field.value }
        let exchange = Exchange(
            test: test, source: source, method: method.rawValue, path: String(parts.first ?? ""),
            query: parts.count > 1 ? String(parts[1]) : nil, contentType: requestHeaders[.contentType],
            idempotencyKey: requestHeaders[HTTPField.Name("Idempotency-Key")!],
            credential: Self.credential(requestHeaders[.authorization]),
            requestBody: requestBody.flatMap { $0.readableBytes == 0 ? nil : String(buffer: $0) },
            status: Int(status.code), responseHeaders: headers, responseBody: String(buffer: responseBody))
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(exchange).write(to: directory.appendingPathComponent("\(UUID().uuidString).json"))
        } catch {
            Issue.record("could not record an API sample in \(directory.path): \(error)")
        }
    }

    /// The kind of credential an `Authorization` value holds, read from a JWT's `kind` claim (never verified: the
    /// gateway did that); the value itself is not recorded.
    static func credential(_ authorization: String?) -> String {
        guard let authorization else { return "none" }
        guard authorization.lowercased().hasPrefix("bearer ") else { return "other" }
        let value = authorization.dropFirst(7).trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("sk_") { return "apiKey" }
        let segments = value.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { return "other" }
        var base64 = segments[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        struct Claims: Decodable { var kind: String? }
        guard let payload = Data(base64Encoded: base64),
            let claims = try? JSONDecoder().decode(Claims.self, from: payload)
        else { return "other" }
        switch claims.kind {
        case "reader_token": return "readerToken"
        case "session": return "readerSession"
        default: return "other"
        }
    }
}

/// Records each exchange through a router (in process or on a live port) with ``APISampleRecorder``; streamed
/// bodies pass through as they are written and are recorded once complete.
struct APISampleMiddleware<Context: RequestContext>: RouterMiddleware {
    let recorder: APISampleRecorder
    /// Taken when the application is built: on a live port the server's tasks know no current test.
    let test = APISampleRecorder.currentTest

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var request = request
        let requestBody = try await request.collectBody(upTo: context.maxUploadSize)
        var response = try await next(request, context)
        let original = response.body
        let collected = Collected()
        let recorder = self.recorder
        let test = self.test
        let head = response.head
        let (method, uri, requestHeaders) = (request.method, request.uri.description, request.headers)
        response.body = ResponseBody(contentLength: original.contentLength) { writer in
            try await original.map { buffer in
                collected.append(buffer)
                return buffer
            }.write(writer)
            recorder.record(
                test: test, source: "IdentityFixture", method: method, uri: uri, requestHeaders: requestHeaders,
                requestBody: requestBody, status: head.status, responseHeaders: head.headerFields,
                responseBody: collected.buffer)
        }
        return response
    }

    /// The bytes written so far.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = ByteBuffer()

        func append(_ buffer: ByteBuffer) {
            var buffer = buffer
            lock.withLock { _ = bytes.writeBuffer(&buffer) }
        }

        var buffer: ByteBuffer { lock.withLock { bytes } }
    }
}
