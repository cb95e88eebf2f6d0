/// A contactless payment card reader with the shape of Apple's ProximityReader `PaymentCardReader`, over this
/// project's EMV kernel and PSP gateway, on Linux or anywhere Swift runs.
///
/// ```swift
/// let reader = PaymentCardReader(options: .init(), environment: environment)
/// let token = PaymentCardReader.Token(rawValue: tokenFromMyPSP)
/// if try await !reader.isAccountLinked(using: token) { try await reader.linkAccount(using: token) }
/// let session = try await reader.prepare(using: token)
/// let result = try await session.readPaymentCard(.init(amount: 12.50, currencyCode: "EUR"))
/// // send result.paymentCardData to the PSP, which authorizes
/// ```
///
/// As with Apple's reader, the card data leaves the reader sealed to the PSP and the app's server authorizes it;
/// ``events`` tells the app what the (here simulated) system UI shows. ``applicationDidEnterBackground()`` and
/// ``applicationWillEnterForeground()`` stand in for the system's lifecycle notifications.
public final class PaymentCardReader: Sendable {
    /// The reader's options.
    public let options: Options
    /// What the reader shows, in order: progress of a device's first prepare, then each read's steps.
    public let events: Events
    /// The device, PSP, interface and clock the reader runs with.
    public let environment: ReaderEnvironment
    let core: ReaderCore

    /// Creates a reader; keep it for as long as its sessions are used.
    public init(options: Options = Options(), environment: ReaderEnvironment) {
        self.options = options
        self.environment = environment
        let (events, continuation) = Events.makeStream()
        self.events = events
        core = ReaderCore(options: options, environment: environment, continuation: continuation, observer: nil)
    }

    /// Creates a reader that also hands each event to `observer` as it is emitted, before the call that caused it
    /// returns: for an SDK layered on the reader (`Terminal`) that must order the reader's events with its own.
    /// ``events`` then keeps only what a waiting consumer takes (nothing piles up when nobody reads it).
    public init(
        options: Options = Options(), environment: ReaderEnvironment,
        observer: @escaping @Sendable (Event) -> Void
    ) {
        self.options = options
        self.environment = environment
        let (events, continuation) = Events.makeStream(bufferingPolicy: .bufferingNewest(0))
        self.events = events
        core = ReaderCore(options: options, environment: environment, continuation: continuation, observer: observer)
    }

    /// Whether this device can read cards: it has a contactless interface.
    public var isSupported: Bool { environment.interface != nil }

    /// Whether the token's merchant accepted the Terms and Conditions (the same on every device).
    /// - Throws: ``PaymentCardReaderError`` `emptyReaderToken`, `invalidReaderToken`, `tokenExpired`,
    ///   `networkError` or `accountLinkingCheckFailed`.
    public func isAccountLinked(using token: Token) async throws -> Bool {
        try await core.isAccountLinked(token: token.rawValue)
    }

    /// Accepts the Terms and Conditions for the token's merchant; the token's user must be a merchant admin.
    /// - Throws: ``PaymentCardReaderError`` `accountAlreadyLinked`, `accountLinkingFailed` (not an admin),
    ///   `emptyReaderToken`, `invalidReaderToken`, `tokenExpired` or `networkError`.
    public func linkAccount(using token: Token) async throws {
        try await core.link(token: token.rawValue, relink: false)
    }

    /// Accepts the Terms and Conditions again, with a token that allows relinking.
    /// - Throws: as ``linkAccount(using:)``; `accountLinkingFailed` when the token does not allow relinking.
    public func relinkAccount(using token: Token) async throws {
        try await core.link(token: token.rawValue, relink: true)
    }

    /// Prepares the device for the token's merchant and returns the session to read cards with.
    ///
    /// A device's first prepare emits ``Event/updateProgress(_:)`` as the PSP registers it, stores its PIN key and
    /// builds its configuration; later prepares are quick and silent. A new session replaces the previous one.
    /// - Throws: ``PaymentCardReaderError`` `unsupported`, `emptyReaderToken`, `backgroundRequestNotAllowed`,
    ///   `readerBusy`, `accountNotLinked`, `merchantBlocked` (a fourth merchant on the device within 24 hours),
    ///   `tokenExpired`, `invalidReaderToken`, `networkError` or `prepareFailed`.
    public func prepare(using token: Token) async throws -> PaymentCardReaderSession {
        let id = try await core.prepare(token: token.rawValue)
        return PaymentCardReaderSession(core: core, sessionID: id)
    }

    /// The app went to the background: the session ends (a read in progress fails with
    /// ``PaymentCardReaderSession/ReadError/Code/readFromBackgroundError``), ``Event/notReady`` is emitted, and
    /// reads fail until the app is back and prepares again.
    public func applicationDidEnterBackground() async { await core.enterBackground() }

    /// The app is back in the foreground: prepare again before reading (the old session's reads throw
    /// ``PaymentCardReaderError/Code/notReady``).
    public func applicationWillEnterForeground() async { await core.enterForeground() }
}
