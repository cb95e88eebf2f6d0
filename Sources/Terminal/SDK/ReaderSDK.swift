import EMV
import Foundation
import GatewayAPI
import TapToPay

/// A payment terminal with the shape of a PSP's reader SDK (EverCommerce's ECPSdk over Stripe Terminal): configure
/// reader types, discover devices, connect one, make sales, all over ``TapToPay/PaymentCardReader`` and the
/// merchant's server.
///
/// ```swift
/// let sdk = ReaderSDK(configuration: .init(deviceID: "phone-1", gateway: transport, backend: backend,
///                                          tapToPayInterface: nfc))
/// try await sdk.configureReaderTypes([.tapToPay])
/// try await sdk.setDisplayName("Corner Shop")
/// let device = try await sdk.discoverDevices().first!       // "iOS Tap To Pay"
/// try await sdk.connect(device)
/// let result = try await sdk.makeSale(PaymentParameters(amount: 12.34, currency: "EUR"))
/// print(result.receipt)
/// ```
///
/// The terminal is a facade: the reader reads and seals the card and captures the PIN, the merchant's server
/// (``MerchantBackend``) issues reader tokens and authorizes. One operation runs at a time (connect, sale, refund,
/// verification, reconnect); another call meanwhile fails with ``TerminalError/Code/busy``. ``events`` reports the
/// configuration's status and progress, the payment screen and the reader's steps, in order.
///
/// The display name is fixed for a connection: ``setDisplayName(_:)`` while connected with a different name throws
/// ``TerminalError/Code/displayNameRequiresReconnect`` (disconnect, set it, connect).
///
/// ``applicationDidEnterBackground()`` ends the reader session (a sale in progress fails as Apple's reads do) and
/// disconnects: back in the foreground the app connects again (to ``savedDevice``: no link check, no progress). With
/// ``Configuration/reconnectsAutomatically`` the terminal stays connected instead and
/// ``applicationWillEnterForeground()`` configures the device again.
public actor ReaderSDK {
    /// What the terminal runs with.
    public nonisolated let configuration: Configuration
    /// The terminal's events, in order.
    public nonisolated let events: Events
    let continuation: AsyncStream<Event>.Continuation
    /// What the reader showed during the current read.
    let readActivity = ReadActivity()

    /// The reader types ``configureReaderTypes(_:)`` set; empty before.
    public private(set) var configuredReaderTypes: Set<ReaderType> = []
    /// The merchant's name on the payment screen and receipts; nil: the merchant's business name at the PSP.
    public private(set) var displayName: String?
    /// The device of the last successful connect (save it, and pass it as ``Configuration/savedDevice`` next time).
    public private(set) var savedDevice: Device?

    /// A connected device: its reader, the display name it connected with, and its live session (nil after
    /// backgrounding, until configured again).
    struct Connection {
        var device: Device
        var reader: PaymentCardReader
        var displayName: String
        var session: PaymentCardReaderSession?
    }

    var connection: Connection?
    /// Readers by device id, kept across reconnects.
    private var readers: [String: PaymentCardReader] = [:]
    /// The reader token in use, until it is about to expire.
    private var token: ReaderToken?
    /// The operation in progress, by name.
    private var operation: String?
    var isInBackground = false

    /// Creates a terminal.
    public init(configuration: Configuration) {
        self.configuration = configuration
        (events, continuation) = Events.makeStream()
        savedDevice = configuration.savedDevice
    }

    deinit { continuation.finish() }

    /// The connected device, if any.
    public var connectedDevice: Device? { connection?.device }

    func emit(_ event: Event) { continuation.yield(event) }

    // MARK: - Reader types and devices

    /// Sets the reader types discovery and connect use.
    /// - Throws: ``TerminalError`` `noReaderTypes` (an empty set), `tapToPayUnavailable` (`.tapToPay` on a phone
    ///   without a contactless interface), `busy`.
    public func configureReaderTypes(_ types: Set<ReaderType>) throws(TerminalError) {
        guard !types.isEmpty else {
            throw TerminalError(code: .noReaderTypes, message: "configure at least one reader type")
        }
        if types.contains(.tapToPay), tapToPayReader().environment.interface == nil {
            throw TerminalError(code: .tapToPayUnavailable, message: "this phone has no contactless interface")
        }
        try checkIdle()
        configuredReaderTypes = types
    }

    /// The devices of the configured types: the phone itself (id ``Device/tapToPayID``) for Tap to Pay, the PC/SC
    /// readers for external (none when PC/SC is not available).
    /// - Throws: ``TerminalError/Code/notConfigured``.
    public func discoverDevices() throws(TerminalError) -> [Device] {
        guard !configuredReaderTypes.isEmpty else {
            throw TerminalError(code: .notConfigured, message: "configure reader types before discovering devices")
        }
        var devices: [Device] = []
        if configuredReaderTypes.contains(.tapToPay), tapToPayReader().environment.interface != nil {
            devices.append(.tapToPay)
        }
        if configuredReaderTypes.contains(.external) { devices += ExternalReaders.names().map(Device.external) }
        return devices
    }

    /// Sets the merchant's name for the payment screen; set it before connecting. Empty: the merchant's business
    /// name at the PSP, as when it is never set.
    /// - Throws: ``TerminalError`` `displayNameRequiresReconnect` (connected with another name), `busy`.
    public func setDisplayName(_ name: String) throws(TerminalError) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        try checkIdle()
        if let connection, trimmed.isEmpty ? displayName != nil : connection.displayName != trimmed {
            throw TerminalError(
                code: .displayNameRequiresReconnect,
                message: "the payment screen shows the name the device connected with: disconnect, set it, connect")
        }
        displayName = trimmed.isEmpty ? nil : trimmed
    }

    // MARK: - Connection

    /// Connects `device`: a reader token from the merchant's server, the account link (accepted by an admin on the
    /// first connect), and the device's prepare at the PSP, whose first time reports progress. A device connected
    /// before (``savedDevice``) skips the link check and reuses the token: fewer round trips, no progress.
    ///
    /// Events: `configurationStatus(configuring)`, `configurationProgress` on a device's first prepare, then
    /// `configurationStatus(configured)`, or `configurationStatus(failed)`.
    /// Without a display name the payment screen shows the merchant's business name from the PSP.
    /// - Throws: ``TerminalError`` (`notConfigured`, `readerTypeNotConfigured`,
    ///   `deviceNotFound`, `tapToPayUnavailable`, `busy`), the reader's ``TapToPay/PaymentCardReaderError``
    ///   (`backgroundRequestNotAllowed`, `notAllowed`, `deviceBanned`, `tokenExpired`, …) or the merchant server's error.
    @discardableResult
    public func connect(_ device: Device) async throws -> ConnectionReport {
        try begin("connect")
        defer { end() }
        guard !configuredReaderTypes.isEmpty else {
            throw TerminalError(code: .notConfigured, message: "configure reader types before connecting")
        }
        guard configuredReaderTypes.contains(device.readerType) else {
            throw TerminalError(code: .readerTypeNotConfigured, message: "\(device.readerType) is not configured")
        }
        guard !isInBackground else {
            throw PaymentCardReaderError.backgroundRequestNotAllowed
        }
        let reader = try self.reader(for: device)
        if connection != nil {
            connection = nil
            emit(.configurationStatus(.disconnected))
        }
        let started = ContinuousClock.now
        let reusing = device == savedDevice
        emit(.configurationStatus(.configuring))
        do {
            let session = try await prepare(reader, checkLink: !reusing)
            let shownName = if let displayName { displayName } else { await session.merchantName ?? "" }
            connection = Connection(device: device, reader: reader, displayName: shownName, session: session)
            savedDevice = device
            emit(.configurationStatus(.configured))
        } catch {
            emit(.configurationStatus(.failed))
            throw error
        }
        return ConnectionReport(device: device, reusedSavedDevice: reusing, elapsed: started.duration(to: .now))
    }

    /// Disconnects the device (its reader is kept for a faster reconnect); nothing when none is connected.
    /// - Throws: ``TerminalError/Code/busy``.
    public func disconnect() throws(TerminalError) {
        try checkIdle()
        guard connection != nil else { return }
        connection = nil
        emit(.configurationStatus(.disconnected))
    }

    /// Cancels the card read or PIN entry in progress (the sale then throws `readCancelled`); whether there was
    /// one.
    @discardableResult
    public func cancel() async -> Bool {
        guard operation != nil, let session = connection?.session else { return false }
        return await session.cancelRead()
    }

    // MARK: - Lifecycle

    /// The app went to the background: the reader session ends, a sale in progress fails
    /// (`readFromBackgroundError`), and `configurationStatus(notReady)` is reported; then, unless the configuration
    /// reconnects automatically, the terminal disconnects (`configurationStatus(disconnected)`).
    public func applicationDidEnterBackground() async {
        isInBackground = true
        guard var connection else { return }
        connection.session = nil
        self.connection = connection
        emit(.configurationStatus(.notReady))
        await connection.reader.applicationDidEnterBackground()
        if operation == nil { disconnectInBackground() }
    }

    /// Disconnects a terminal in the background that does not reconnect automatically (after the operation that
    /// was running, if any, has failed).
    private func disconnectInBackground() {
        guard isInBackground, !configuration.reconnectsAutomatically, connection != nil else { return }
        connection = nil
        emit(.configurationStatus(.disconnected))
    }

    /// The app is back. With ``Configuration/reconnectsAutomatically`` the connected device is configured again
    /// (quietly: the PSP knows it; when another operation is still finishing, the next sale configures it instead);
    /// otherwise the app connects again.
    /// - Throws: as ``connect(_:)``; the terminal is then disconnected.
    public func applicationWillEnterForeground() async throws {
        isInBackground = false
        // Every reader, also one backgrounded while connected and disconnected since.
        for reader in readers.values { await reader.applicationWillEnterForeground() }
        guard let connection else { return }
        guard connection.session == nil, operation == nil else { return }
        try begin("reconnect")
        defer { end() }
        _ = try await liveSession()
    }

    // MARK: - Operations

    func begin(_ name: String) throws(TerminalError) {
        if let operation {
            throw TerminalError(code: .busy, message: "a \(operation) is in progress: one operation at a time")
        }
        operation = name
    }

    func end() {
        operation = nil
        disconnectInBackground()
    }

    private func checkIdle() throws(TerminalError) {
        if let operation {
            throw TerminalError(code: .busy, message: "a \(operation) is in progress: one operation at a time")
        }
    }

    /// Forgets the live session (it expired): the next ``liveSession()`` prepares again.
    func endSession() {
        connection?.session = nil
    }

    /// The connection and its live session, configuring the device again after backgrounding.
    func liveSession() async throws -> (Connection, PaymentCardReaderSession) {
        guard var connection else {
            throw TerminalError(code: .notConnected, message: "connect a device first")
        }
        if let session = connection.session { return (connection, session) }
        guard !isInBackground else {
            throw PaymentCardReaderSession.ReadError.readFromBackgroundError
        }
        emit(.configurationStatus(.configuring))
        do {
            let session = try await prepare(connection.reader, checkLink: false)
            connection.session = session
            self.connection = connection
            emit(.configurationStatus(.configured))
            return (connection, session)
        } catch {
            self.connection = nil
            emit(.configurationStatus(.failed))
            throw error
        }
    }

    /// A session of `reader`: linking the account first when `checkLink`, with a fresh token when the one in use
    /// expired.
    private func prepare(_ reader: PaymentCardReader, checkLink: Bool) async throws -> PaymentCardReaderSession {
        var token = try await readerToken(fresh: false)
        if checkLink, try await !reader.isAccountLinked(using: token) {
            try await reader.linkAccount(using: token)
        }
        do {
            return try await reader.prepare(using: token)
        } catch PaymentCardReaderError.tokenExpired {
            token = try await readerToken(fresh: true)
        } catch PaymentCardReaderError.accountNotLinked where !checkLink {
            // The saved device's merchant was unlinked since: link again (an admin's token can).
            try await reader.linkAccount(using: token)
        }
        return try await reader.prepare(using: token)
    }

    /// The reader token in use, or a new one from the merchant's server when asked or within a minute of expiry.
    private func readerToken(fresh: Bool) async throws -> PaymentCardReader.Token {
        if !fresh, let token, token.expiresAt > configuration.clock().addingTimeInterval(60) {
            return PaymentCardReader.Token(rawValue: token.token)
        }
        let issued = try await configuration.backend.readerToken()
        token = issued
        return PaymentCardReader.Token(rawValue: issued.token)
    }

    // MARK: - Readers

    /// The reader of `device`, made once and kept.
    private func reader(for device: Device) throws(TerminalError) -> PaymentCardReader {
        switch device.readerType {
        case .tapToPay:
            guard device.id == Device.tapToPayID else {
                throw TerminalError(code: .deviceNotFound, message: "the Tap to Pay device is \(Device.tapToPayID)")
            }
            let reader = tapToPayReader()
            guard reader.environment.interface != nil else {
                throw TerminalError(code: .tapToPayUnavailable, message: "this phone has no contactless interface")
            }
            return reader
        case .external:
            if let reader = readers[device.id] { return reader }
            let interface = try ExternalReaders.interface(named: device.id, pinPad: configuration.externalPINPad)
            let reader = makeReader(
                deviceID: ExternalReaders.pspDeviceID(phone: configuration.deviceID, readerName: device.id),
                interface: interface)
            readers[device.id] = reader
            return reader
        }
    }

    private func tapToPayReader() -> PaymentCardReader {
        if let reader = readers[Device.tapToPayID] { return reader }
        let reader = makeReader(deviceID: configuration.deviceID, interface: configuration.tapToPayInterface)
        readers[Device.tapToPayID] = reader
        return reader
    }

    /// A reader whose events come out of ``events`` in the order the reader emits them.
    private func makeReader(deviceID: String, interface: (any ContactlessInterface)?) -> PaymentCardReader {
        let continuation = self.continuation
        let activity = readActivity
        return PaymentCardReader(
            // A card's own decline comes back as a result, so the sale can show its receipt.
            options: PaymentCardReader.Options(includeErrorInReadResult: true, returnReadResultImmediately: false),
            environment: ReaderEnvironment(
                deviceID: deviceID, gateway: configuration.gateway, interface: interface, clock: configuration.clock,
                timeZone: configuration.timeZone, maximumTapAttempts: configuration.maximumTapAttempts)
        ) { event in
            activity.note(event)
            if case .updateProgress(let percent) = event {
                continuation.yield(.configurationProgress(percent))
            } else {
                continuation.yield(.reader(event))
            }
        }
    }
}
