/// A contactless payment card reader with the shape of Apple's ProximityReader `PaymentCardReader`, over this
/// project's EMV kernel and PSP gateway, on Linux or anywhere Swift runs.
///
/// ```swift
/// guard PaymentCardReader.isSupported else { return }  // CONTACTLESS_READER names an interface
/// let reader = PaymentCardReader()
/// let token = PaymentCardReader.Token(rawValue: tokenFromMyPSP)
/// if try await !reader.isAccountLinked(using: token) { try await reader.linkAccount(using: token) }
/// let session = try await reader.prepare(using: token)
/// let result = try await session.readPaymentCard(.init(amount: 12.50, currencyCode: "EUR"))
/// // send result.paymentCardData to the PSP, which authorizes
/// ```
///
/// As with Apple's reader, the card data leaves the reader sealed to the PSP and the app's server authorizes it;
/// ``events`` tells the app what the (here simulated) system UI shows. `PaymentCardReader()` takes its contactless
/// interface from `CONTACTLESS_READER` (`loopback:visa`, `loopback:mastercard`, `loopback:PROFILE.json`,
/// `pcsc:NAME` or `pcsc:`) and its PSP from each reader token's issuer; ``init(options:environment:)`` says both
/// explicitly (tests, embedding). ``applicationDidEnterBackground()`` and
/// ``applicationWillEnterForeground()`` stand in for the system's lifecycle notifications.
public final class PaymentCardReader: Sendable {
    /// The reader's options.
    public let options: Options
    /// What the reader shows from now on, in order: progress of a device's first prepare, then each read's steps.
    /// Each access is a new sequence, so any number of loops may run at once (see ``Events``).
    public var events: Events { broadcast.subscribe() }
    /// The device, PSP, interface and clock the reader runs with.
    public let environment: ReaderEnvironment
    let core: ReaderCore
    private let broadcast: EventBroadcast

    /// Whether this process can read cards: `CONTACTLESS_READER` names a contactless interface that works here.
    public static var isSupported: Bool { ProcessReader.interface() != nil }

    /// Creates a reader on the process's contactless interface (`CONTACTLESS_READER`), whose PSP is the one that
    /// issued each reader token; keep it for as long as its sessions are used. Without an interface, prepare and
    /// reads throw ``PaymentCardReaderError/unsupported``.
    public convenience init(options: Options = Options()) {
        self.init(
            options: options,
            environment: ReaderEnvironment(
                deviceID: ProcessReader.deviceID(), gateway: nil, interface: ProcessReader.interface()))
    }

    /// Creates a reader in `environment`; keep it for as long as its sessions are used.
    public init(options: Options = Options(), environment: ReaderEnvironment) {
        self.options = options
        self.environment = environment
        broadcast = EventBroadcast()
        core = ReaderCore(options: options, environment: environment, events: broadcast, observer: nil)
    }

    /// Creates a reader that also hands each event to `observer` as it is emitted, before the call that caused it
    /// returns: for an SDK layered on the reader (`Terminal`) that must order the reader's events with its own.
    public init(
        options: Options = Options(), environment: ReaderEnvironment,
        observer: @escaping @Sendable (Event) -> Void
    ) {
        self.options = options
        self.environment = environment
        broadcast = EventBroadcast()
        core = ReaderCore(options: options, environment: environment, events: broadcast, observer: observer)
    }

    /// Whether the token's merchant accepted the Terms and Conditions (the same on every device).
    /// - Throws: ``PaymentCardReaderError`` `emptyReaderToken`, `invalidReaderToken`, `tokenExpired`,
    ///   `networkError` or `accountLinkingCheckFailed`.
    public func isAccountLinked(using token: Token) async throws -> Bool {
        try await core.isAccountLinked(token: token.rawValue)
    }

    /// Accepts the Terms and Conditions for the token's merchant; the token's user must be a merchant admin.
    /// - Throws: ``PaymentCardReaderError`` `notAllowed` (not an admin: tell the user only admins may accept the
    ///   Terms and Conditions), `accountAlreadyLinked`, `accountLinkingFailed`, `emptyReaderToken`,
    ///   `invalidReaderToken`, `tokenExpired` or `networkError`.
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
    /// If the app goes to the background during the device's configuration, this throws
    /// ``PaymentCardReaderError/serviceConnectionError`` at once while the configuration goes on; the next prepare
    /// in the foreground finishes it and returns a new session.
    /// - Throws: ``PaymentCardReaderError`` `unsupported`, `emptyReaderToken`, `backgroundRequestNotAllowed`,
    ///   `serviceConnectionError`, `readerBusy`, `accountNotLinked`, `deviceBanned` (a fourth merchant on the device
    ///   within 24 hours), `tokenExpired`, `invalidReaderToken`, `networkError` or `prepareFailed`.
    public func prepare(using token: Token) async throws -> PaymentCardReaderSession {
        let id = try await core.prepare(token: token.rawValue)
        return PaymentCardReaderSession(core: core, sessionID: id)
    }

    /// The app went to the background: the session ends (a read in progress fails with
    /// ``PaymentCardReaderSession/ReadError/readFromBackgroundError``), ``Event/notReady`` is emitted, and
    /// reads fail until the app is back and prepares again.
    public func applicationDidEnterBackground() async { await core.enterBackground() }

    /// The app is back in the foreground: prepare again before reading (the old session's reads throw
    /// ``PaymentCardReaderError/notReady``).
    public func applicationWillEnterForeground() async { await core.enterForeground() }
}
