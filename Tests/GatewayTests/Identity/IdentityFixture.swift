import CardEmulator
import EMV
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = start }

    var now: Date { lock.withLock { current } }
    func advance(by interval: TimeInterval) { lock.withLock { current += interval } }
    func set(_ date: Date) { lock.withLock { current = date } }
    var function: @Sendable () -> Date { { self.now } }
}

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
