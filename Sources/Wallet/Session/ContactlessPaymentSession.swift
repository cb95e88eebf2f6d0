import CardEmulator
import EMV
import Foundation

/// One contactless payment with a digital card (Thales: `ContactlessPaymentSession`): choose the card, authenticate
/// the cardholder, present the card on the phone's field, let a reader pay with it.
///
/// ```swift
/// let session = ContactlessPaymentSession(wallet: wallet, field: field)
/// await session.startPayment()                       // double-click: the default card
/// for await event in session.eventStream {
///     switch event {
///     case .authenticationRequired(let authentication): await authentication.proceed()
///     case .authenticationCompleted: try await session.startEmulation()
///     case .transactionCompleted(let context): print(context)
///     case .errorEncountered(let error): print(error)
///     default: break
///     }
/// }
/// ```
///
/// The three experiences: double-click (``startPayment(withDigitalCardID:)`` with nil: the default card), manual (a
/// chosen card, which becomes the default), field-detect (start emulation when ``Event/posConnected`` arrives: the
/// reader's first poll finds no card, its next one pays). Errors arrive as ``Event/errorEncountered(_:)`` and end
/// the session; ``startEmulation()`` and ``requestAuthorization()`` also throw theirs. One session per wallet at a
/// time: a second one ends with ``ContactlessPaymentSessionError/Code/sessionInProgress``. Emulation lasts at most
/// the wallet's ``WalletConfiguration/maximumSessionDuration`` (60 s); an authentication is good for starting a
/// transaction during ``WalletConfiguration/authenticationValidity``.
///
/// When the session ends, the key its transaction used is gone from the wallet's store, so each key pays once. A
/// session waiting for the cardholder's authentication holds the wallet's one session until it is answered or
/// ``cancel()``led: end sessions the app abandons with ``cancel()``.
public actor ContactlessPaymentSession {
    /// The session's events; finishes after the last.
    public nonisolated let eventStream: ContactlessPaymentEventStream
    /// The message the payment sheet shows (Thales's modal presentation); set with ``setAlertMessage(_:)``.
    public private(set) var alertMessage = "Hold near reader"

    private let continuation: AsyncStream<Event>.Continuation
    private let wallet: DigitalWallet
    private let field: CardEmulationField
    private var started = false
    private var ended = false
    private var holdsSlot = false
    private var core: SessionCore?
    private var digitalCardID: String?
    private var driver: Task<Void, Never>?

    /// A session of `wallet` that presents its card on `field`.
    public init(wallet: DigitalWallet, field: CardEmulationField) {
        self.wallet = wallet
        self.field = field
        let (stream, continuation) = ContactlessPaymentEventStream.makeStream()
        eventStream = stream
        self.continuation = continuation
    }

    /// Checks that the app may emulate cards (Thales: `requestAuthorization()`).
    /// - Throws: ``ContactlessPaymentSessionError/Code/nfcPermissionNotAccepted``,
    ///   ``ContactlessPaymentSessionError/Code/systemEligibilityFailed``.
    public func requestAuthorization() throws(ContactlessPaymentSessionError) {
        if let error = Self.systemError(wallet.configuration.device) { throw error }
    }

    /// Starts a payment with the card `digitalCardID`, or the default card when nil; a named card becomes the
    /// default. Continue with the ``eventStream``: `authenticationRequired` next, or an error.
    public func startPayment(withDigitalCardID digitalCardID: String? = nil) async {
        guard !started else { return }
        started = true
        do throws(ContactlessPaymentSessionError) {
            try await prepare(digitalCardID)
        } catch {
            continuation.yield(.errorEncountered(error))
            await finish()
        }
    }

    /// Starts card emulation, after ``Event/authenticationCompleted`` (on that event, or on ``Event/posConnected``
    /// for field-detect); calling it again while emulating does nothing.
    /// - Throws: ``ContactlessPaymentSessionError/Code/deviceEnvironmentUnsafe`` (the session ends),
    ///   ``ContactlessPaymentSessionError/Code/unknown`` before authentication completed.
    public func startEmulation() throws(ContactlessPaymentSessionError) {
        guard let core else { throw ContactlessPaymentSessionError(.unknown, "no payment was started") }
        try core.startEmulation()
    }

    /// Ends the session with ``ContactlessPaymentSessionError/Code/cancelled``.
    public func cancel() async {
        guard started, !ended else { return }
        let error = ContactlessPaymentSessionError(.cancelled, "the payment was cancelled")
        if let core {
            core.fail(error)
        } else {
            continuation.yield(.errorEncountered(error))
            await finish()
        }
    }

    /// Sets the message the payment sheet shows while emulating.
    public func setAlertMessage(_ message: String) {
        alertMessage = message
    }

    // MARK: - Flow

    private func prepare(_ requestedID: String?) async throws(ContactlessPaymentSessionError) {
        let configuration = wallet.configuration
        if let error = Self.systemError(configuration.device) { throw error }
        if let reason = configuration.device.integrityCheck() {
            throw ContactlessPaymentSessionError(.deviceEnvironmentUnsafe, reason)
        }
        guard wallet.sessions.claim(ObjectIdentifier(self)) else {
            throw ContactlessPaymentSessionError(
                .sessionInProgress, "another payment session of this wallet is running")
        }
        holdsSlot = true
        let record = try await card(requestedID)
        guard record.state == .active else {
            throw ContactlessPaymentSessionError(.cardNotActive, "the card is \(record.state)")
        }
        if let data = record.walletTransactionData {
            do {
                try DigitalCardManager.checkWalletTransactionData(data, scheme: record.scheme)
            } catch {
                throw ContactlessPaymentSessionError(.cardNotSupported, error.message)
            }
        }
        guard !record.usableKeys(at: configuration.clock()).isEmpty else {
            throw ContactlessPaymentSessionError(.noPaymentKeys, "the card has no usable payment key: replenish it")
        }
        if let requestedID {
            do {
                if try await wallet.store.defaultCardID() != requestedID {
                    try await wallet.store.setDefaultCardID(requestedID)
                }
            } catch {
                throw ContactlessPaymentSessionError(.setDefaultCardFailure, "the card could not be made the default")
            }
        }
        let environment = CardEnvironment(now: configuration.clock, randomBytes: configuration.randomBytes)
        var card: EmulatedCard
        let profile: CardProfile
        do {
            profile = try record.profile()
            card = try record.makeCard(environment: environment)
            card.acceptsEmptyPDOLData = field.acceptsEmptyPDOLData
        } catch {
            throw ContactlessPaymentSessionError(.unknown, "the card could not be personalised")
        }
        // Cancelled while the store was read: nothing to start.
        if ended { throw ContactlessPaymentSessionError(.cancelled, "the payment was cancelled") }
        digitalCardID = record.digitalCardID
        let core = SessionCore(
            card: card, profile: profile, events: continuation, clock: configuration.clock,
            limits: SessionCore.Limits(
                maximumSessionDuration: configuration.maximumSessionDuration,
                authenticationValidity: configuration.authenticationValidity),
            integrityCheck: configuration.device.integrityCheck)
        self.core = core
        driver = Task { await self.drive(core) }
        continuation.yield(.authenticationRequired(Authentication(session: self)))
    }

    /// The card to pay with: the named one, or the default.
    private func card(_ requestedID: String?) async throws(ContactlessPaymentSessionError) -> DigitalCardRecord {
        let keychainError = ContactlessPaymentSessionError(.keychainError, "the wallet's store does not open")
        let id: String
        if let requestedID {
            id = requestedID
        } else {
            let defaultID: String?
            do { defaultID = try await wallet.store.defaultCardID() } catch { throw keychainError }
            guard let defaultID else {
                throw ContactlessPaymentSessionError(.noDefaultCard, "no card was named and there is no default card")
            }
            id = defaultID
        }
        let record: DigitalCardRecord?
        do { record = try await wallet.store.card(id) } catch { throw keychainError }
        guard let record else {
            throw requestedID == nil
                ? ContactlessPaymentSessionError(.noDefaultCard, "the default card is no longer in the wallet")
                : ContactlessPaymentSessionError(.invalidDigitalCardID, "no digital card has this identifier")
        }
        return record
    }

    /// ``Authentication/proceed()``: the device asks the cardholder.
    func authenticate() async {
        guard let core, core.currentPhase == .awaitingAuthentication else { return }
        let result = await wallet.configuration.device.authenticateUser(alertMessage)
        switch result {
        case .success:
            // Present first: a reader already in the field may poll right after authenticationCompleted.
            field.present(core)
            if !core.authenticated() { field.withdraw(core) }
        case .failed:
            core.fail(ContactlessPaymentSessionError(.authenticationFailed, "the cardholder was not verified"))
        case .cancelled:
            core.fail(ContactlessPaymentSessionError(.cancelled, "the cardholder dismissed the authentication"))
        case .biometricNotEnrolled:
            core.fail(ContactlessPaymentSessionError(.biometricNotEnrolled, "no biometric is enrolled"))
        case .keyInvalidated:
            core.fail(
                ContactlessPaymentSessionError(
                    .authenticationKeyInvalidated, "the device's authentication key was invalidated: enrol again"))
        }
    }

    /// Waits for the end, checking the deadlines meanwhile, then finishes.
    private func drive(_ core: SessionCore) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in core.endSignal { return }
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(200))
                    core.checkDeadlines()
                }
            }
            await group.next()
            group.cancelAll()
        }
        await finish()
    }

    /// Takes the card off the field, spends its used key in the store, frees the wallet's session slot and finishes
    /// the event stream.
    private func finish() async {
        guard !ended else { return }
        ended = true
        if let core {
            field.withdraw(core)
            if let digitalCardID, let atc = core.lastATC {
                _ = try? await wallet.store.update(digitalCardID) { $0.spend(through: atc) }
            }
        }
        if holdsSlot { wallet.sessions.release(ObjectIdentifier(self)) }
        continuation.finish()
    }

    private static func systemError(_ device: DeviceEnvironment) -> ContactlessPaymentSessionError? {
        if !device.isEligibleForContactless {
            return ContactlessPaymentSessionError(
                .systemEligibilityFailed, "the device cannot make contactless payments")
        }
        if !device.nfcPermissionGranted {
            return ContactlessPaymentSessionError(.nfcPermissionNotAccepted, "the app may not use NFC")
        }
        return nil
    }
}
