public import Foundation
import ApplePay
import GatewayAPI
public import Hummingbird
public import Issuer
public import Logging
public import NIOCore
import ServiceLifecycle
import SwiftASN1
import X509
public import _SQLStorage

/// The gateway, built: the Hummingbird application (HTTP API, `/metrics`, `/health`) with its database, keys,
/// issuer link and background services, ready to run.
///
/// ```swift
/// let configuration = GatewayConfiguration(issuer: .tcp(host: "issuer", port: 5000, pinEncryptionKey: pinKey),
///     caPublicKeys: keys)
/// let gateway = try await GatewayApplication.build(configuration: configuration)
/// try await gateway.application.runService()   // SIGTERM/SIGINT: stop accepting, finish, close
/// ```
public struct GatewayApplication: Sendable {
    /// The application; its service group also runs the database, the issuer link and the reversal sweep. On
    /// graceful shutdown the server stops accepting and finishes in-flight requests first, the database closes last.
    public let application: Application<RouterResponder<GatewayRequestContext>>
    /// The database.
    public let database: any SQLDatabase
    /// The PSP's keys.
    public let keys: GatewayKeys
    /// The metrics `/metrics` shows.
    public let metrics: GatewayMetrics
    /// The keys of the issuer host running in this process (``IssuerConnection/Attachment/embeddedIssuerKeys``);
    /// nil for a separate issuer.
    public let embeddedIssuerKeys: IssuerKeys?
    /// Sends the webhook outbox (a service of the application; tests may run it at will).
    public let webhooks: WebhookDispatcher
    /// The server-driven readers connected to it.
    public let readers: ReaderHub

    /// Opens (creating on first start) the key file and the database, migrates, and builds the application;
    /// `onServerRunning` is called with the listening channel (its local address has the port taken for port 0).
    public static func build(
        configuration: GatewayConfiguration, logger: Logger = Logger(label: "contactless.gateway"),
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) async throws -> GatewayApplication {
        let keys = try GatewayKeys.loadOrCreate(directory: configuration.dataDirectory)
        let database = try await GatewayDatabase.open(
            dataDirectory: configuration.dataDirectory, databaseURL: configuration.databaseURL, logger: logger)
        var services: [any Service] = [database]
        // Run once the database's service runs (PostgreSQL's pool lives in it), before the server accepts.
        var migrations: [@Sendable () async throws -> Void] = [
            {
                try await GatewayDatabase.migrate(database)
                try await DataKeyStore(database: database).load(into: keys.dataKeyRing)
            }
        ]
        let issuer = try await configuration.issuer.attach(
            IssuerConnection.Context(
                database: database, embeddedIssuerSecret: keys.embeddedIssuerSecret, logger: logger))
        services += issuer.services
        migrations.append(issuer.prepare)
        let clock = configuration.clock
        let metrics = GatewayMetrics()
        // Purged every second by the sweep: at thousands of payments a second, one purge in ten seconds would
        // hold the one SQLite connection for tens of milliseconds.
        let openedReads = SQLReplayStore(database: database, purgeInterval: 1)
        let payments = PaymentService(
            database: database, opener: keys.opener(replayStore: openedReads, clock: clock),
            issuer: issuer.link, keys: keys, issuerPINKey: issuer.pinEncryptionKey,
            issuerTimeout: configuration.issuerTimeout, clock: clock, logger: logger)
        let startup = StartupGate()
        let idempotencyKeys = IdempotencyStore(retention: configuration.idempotencyRetention)
        let revocations = TokenRevocations(database: database, interval: .seconds(1), logger: logger, startup: startup)
        services.append(revocations)
        let outbox = WebhookOutbox(
            database: database, keys: keys, allowsLocalEndpoints: configuration.allowsLocalWebhooks)
        let webhooks = WebhookDispatcher(outbox: outbox, clock: clock, logger: logger, startup: startup)
        services.append(webhooks)
        services.append(
            DataKeyRefresh(
                store: DataKeyStore(database: database), ring: keys.dataKeyRing, interval: .seconds(1), logger: logger,
                startup: startup))
        let abandonedAfter = configuration.issuerTimeout.timeInterval + 30
        services.append(
            ReversalService(
                payments: payments, openedReads: openedReads, idempotencyKeys: idempotencyKeys,
                interval: configuration.reversalInterval,
                abandonedAfter: abandonedAfter,
                recoverAfter: configuration.recoverAfter?.timeInterval ?? abandonedAfter, startedAt: clock(),
                logger: logger, startup: startup))
        let applePay = ApplePayAcceptance(
            identities: ApplePayIdentityRepository(database: database, keys: keys),
            trustedRoots: try [AppleRootCA.g3]
                + configuration.applePayTrustedRootsPEM.map { try Certificate(pemEncoded: $0) },
            replayStore: SQLTransactionReplayStore(database: database, clock: clock),
            signingTimeWindow: configuration.applePaySigningTimeWindow, clock: clock)
        let readers = ReaderHub(timeout: configuration.readerTimeout, clock: clock)
        await readers.onVoidAwaitingPIN { paymentId, key in
            let reader = Caller(credential: .readerSession, merchantId: key.merchantId, deviceId: key.readerId)
            do {
                _ = try await payments.void(paymentId, caller: reader)
            } catch {
                logger.warning("a payment awaiting a PIN was not voided", metadata: ["payment": "\(paymentId)"])
            }
        }
        services.append(readers)
        let tokens = await ReaderTokenAuthority(keys: keys, revocations: revocations, clock: clock)
        var virtualReaders: VirtualReaders?
        if let launcher = configuration.virtualReaderLauncher {
            virtualReaders = VirtualReaders(launch: launcher, tokens: tokens)
        }
        let router = try await buildRouter(
            tokens: tokens,
            database: database, keys: keys, payments: payments, metrics: metrics, readers: readers, logger: logger,
            policy: ReaderConfigurationPolicy(caPublicKeys: configuration.caPublicKeys), clock: clock,
            applePay: applePay, idempotencyKeys: idempotencyKeys, revocations: revocations,
            maxRequestBodySize: configuration.maxRequestBodySize,
            console: { payments in
                try ConsoleController(
                    accounts: ConsoleAccounts(
                        database: database, bcryptCost: configuration.passwordHashCost,
                        idleTimeout: configuration.consoleIdleTimeout),
                    payments: payments, merchants: MerchantRepository(database: database), database: database,
                    webhooks: outbox, clock: clock,
                    secureCookies: configuration.secureCookies, readers: readers, virtualReaders: virtualReaders,
                    smtp: configuration.smtp)
            })
        var application = Application(
            router: router,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.hostname, port: configuration.port),
                serverName: "contactless-gateway"),
            services: services, onServerRunning: onServerRunning, logger: logger)
        let steps = migrations
        application.beforeServerStarts {
            for step in steps { try await step() }
            await startup.open()
        }
        return GatewayApplication(
            application: application, database: database, keys: keys, metrics: metrics,
            embeddedIssuerKeys: issuer.embeddedIssuerKeys, webhooks: webhooks, readers: readers)
    }

    /// The API's routes: `/health` and `/metrics` open, every `/v1` route behind the ``Authenticator``.
    static func buildRouter(
        tokens: ReaderTokenAuthority, database: any SQLDatabase, keys: GatewayKeys, payments: PaymentService,
        metrics: GatewayMetrics,
        readers: ReaderHub, logger: Logger, policy: ReaderConfigurationPolicy, clock: @escaping @Sendable () -> Date,
        applePay: ApplePayAcceptance,
        idempotencyKeys: IdempotencyStore, revocations: TokenRevocations, maxRequestBodySize: Int,
        console: (PaymentService) throws -> ConsoleController? = { _ in nil }
    ) async throws -> Router<GatewayRequestContext> {
        let router = Router(context: GatewayRequestContext.self)
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: ProblemMiddleware())
        router.add(middleware: RequestBodyLimit(limit: maxRequestBodySize))
        let allowedMethods = AllowedMethods()
        router.add(middleware: allowedMethods)
        router.get("health") { _, _ in "ok" }
        router.get("metrics") { _, _ in metrics.exposition() }
        let merchants = MerchantRepository(database: database)
        let api = router.group().add(
            middleware: Authenticator(apiKeys: APIKeyRepository(database: database), tokens: tokens, clock: clock))
        ReaderTokenController(users: MerchantUserRepository(database: database), tokens: tokens).addRoutes(to: api)
        AccountLinkController(merchants: merchants, clock: clock).addRoutes(to: api)
        TokenRevocationController(revocations: revocations, clock: clock).addRoutes(to: api)
        DeviceController(
            merchants: merchants, devices: DeviceRepository(database: database), keys: keys, tokens: tokens,
            policy: policy, clock: clock, readers: readers
        ).addRoutes(to: api)
        let paymentController = PaymentController(
            service: payments,
            idempotency: IdempotentResponder(database: database, clock: clock, store: idempotencyKeys),
            metrics: metrics)
        paymentController.addRoutes(to: api)
        ApplePayController(payments: paymentController, acceptance: applePay).addRoutes(to: api)
        ReaderController(hub: readers, payments: payments, database: database, logger: logger).addRoutes(to: api)
        try console(payments)?.addRoutes(to: router)
        allowedMethods.load(router.routes)
        return router
    }
}
