import CardEmulator
import EMV
import Foundation

/// Contactless payments with digital cards (Thales: `ContactlessPaymentSession`): choose the card, authenticate
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
/// the payment; ``startEmulation()`` and ``requestAuthorization()`` also throw theirs. One payment per wallet at a
/// time: a second session's ends with ``ContactlessPaymentSessionError/Code/sessionInProgress``. Emulation lasts at
/// most the wallet's ``WalletConfiguration/maximumSessionDuration`` (60 s); an authentication is good for starting a
/// transaction during ``WalletConfiguration/authenticationValidity``.
///
/// A session runs one payment at a time, and another after it: once a payment ended (completed, failed or
/// ``cancel()``led), ``startPayment(withDigitalCardID:)`` starts the next one on the same session, with the card it
/// names — so a cardholder who cancels to switch cards keeps the session. Each payment has its own
/// ``eventStream``: read it again after starting the next payment. A call while a payment runs is ignored.
///
/// ``startEmulation()`` puts up the system's emulation sheet (Thales's modal presentation, Core NFC's card emulation
/// UI), through the device's ``DeviceEnvironment/updateEmulationSheet``; while it is up the app changes nothing on it
/// but its text, with ``setAlertMessage(_:)``, and it goes away when the payment ends.
///
/// When a payment ends, the key its transaction used is gone from the wallet's store, so each key pays once. A
/// payment waiting for the cardholder's authentication holds the wallet's one payment slot until it is answered or
/// ``cancel()``led: end payments the app abandons with ``cancel()``.
public actor ContactlessPaymentSession {
    /// The events of the session's payment: the running one, or the last one until the next starts (the first one
    /// before any starts). Finishes after the payment's last event; read it again after
    /// ``startPayment(withDigitalCardID:)`` for the next payment's events. One consumer.
    public nonisolated var eventStream: ContactlessPaymentEventStream { streams.stream }
    /// The message the emulation sheet shows and the authentication prompt gives as its reason; set with
    /// ``setAlertMessage(_:)``.
    public private(set) var alertMessage = "Hold near reader"

    private let wallet: DigitalWallet
    private let field: CardEmulationField
    private let streams = EventStreams()
    /// The running payment, or the one finishing; nil between payments.
    private var payment: Payment?
    private var nextPaymentID = 0

    /// A session of the app's wallet (``DigitalWallet/shared``, set at start-up with ``DigitalWallet/configure(_:)``)
    /// on the phone's field (``CardEmulationField/shared``), as Thales's `init()` makes one. Before the wallet is
    /// configured the session fails with ``ContactlessPaymentSessionError/Code/systemEligibilityFailed``.
    public init() {
        self.init(wallet: DigitalWallet.shared ?? .notConfigured, field: .shared)
    }

    /// A session of `wallet` that presents its card on `field`.
    public init(wallet: DigitalWallet, field: CardEmulationField) {
        self.wallet = wallet
        self.field = field
    }

    /// Checks that the app may emulate cards (Thales: `requestAuthorization()`).
    /// - Throws: ``ContactlessPaymentSessionError/Code/nfcPermissionNotAccepted``,
    ///   ``ContactlessPaymentSessionError/Code/systemEligibilityFailed``.
    public func requestAuthorization() throws(ContactlessPaymentSessionError) {
        if let error = Self.systemError(wallet.configuration.device) { throw error }
    }

    /// Starts a payment with the card `digitalCardID`, or the default card when nil; a named card becomes the
    /// default. Continue with the ``eventStream``: `authenticationRequired` next, or an error.
    ///
    /// After a payment ended (a ``cancel()`` included) this starts the next one, with a new ``eventStream``: this is
    /// how the cardholder switches cards. While a payment runs the call does nothing; a payment still finishing
    /// (its card leaving the field, its key being spent) finishes first.
    public func startPayment(withDigitalCardID digitalCardID: String? = nil) async {
        while let current = payment {
            if current.ended {
                await current.finished()
            } else if current.core?.hasEnded == true {
                // Its driver has not run yet: finish it here, so the next payment starts on a clean field.
                await finish(current)
            } else {
                return
            }
        }
        nextPaymentID += 1
        let payment = Payment(id: nextPaymentID, continuation: streams.begin())
        self.payment = payment
        do throws(ContactlessPaymentSessionError) {
            try await prepare(payment, digitalCardID)
        } catch {
            payment.continuation.yield(.errorEncountered(error))
            await finish(payment)
        }
    }

    /// Starts card emulation and puts up the emulation sheet, after ``Event/authenticationCompleted`` (on that
    /// event, or on ``Event/posConnected`` for field-detect); calling it again while emulating does nothing.
    /// - Throws: ``ContactlessPaymentSessionError/Code/deviceEnvironmentUnsafe`` (the payment ends),
    ///   ``ContactlessPaymentSessionError/Code/unknown`` before authentication completed.
    public func startEmulation() throws(ContactlessPaymentSessionError) {
        guard let payment, let core = payment.core else {
            throw ContactlessPaymentSessionError(.unknown, "no payment was started")
        }
        if try core.startEmulation() {
            payment.sheetShown = true
            wallet.configuration.device.updateEmulationSheet(.presented(alertMessage: alertMessage))
        }
    }

    /// Ends the running payment with ``ContactlessPaymentSessionError/Code/cancelled``; returns once it has ended,
    /// so ``startPayment(withDigitalCardID:)`` can follow at once.
    public func cancel() async {
        guard let payment else { return }
        await cancel(payment)
    }

    /// Ends `payment` with ``ContactlessPaymentSessionError/Code/cancelled`` unless it has ended.
    private func cancel(_ payment: Payment) async {
        guard !payment.ended else { return }
        let error = ContactlessPaymentSessionError(.cancelled, "the payment was cancelled")
        if let core = payment.core {
            core.fail(error)
        } else {
            // Still reading the card from the store: prepare(_:_:) sees the payment ended and starts nothing.
            payment.continuation.yield(.errorEncountered(error))
        }
        await finish(payment)
    }

    /// Sets the message the emulation sheet shows (Thales: `setAlertMessage(_:)`, Core NFC: `alertMessage`): set it
    /// before ``startEmulation()`` for the sheet's first text, or while the sheet is up to change it (the one change
    /// the app may make to the sheet). The device's authentication prompt also gives it as its reason.
    public func setAlertMessage(_ message: String) {
        alertMessage = message
        if let payment, payment.sheetShown {
            wallet.configuration.device.updateEmulationSheet(.alertMessageChanged(message))
        }
    }

    // MARK: - Flow

    private func prepare(_ payment: Payment, _ requestedID: String?) async throws(ContactlessPaymentSessionError) {
        let configuration = wallet.configuration
        if let error = Self.systemError(configuration.device) { throw error }
        if let reason = configuration.device.integrityCheck() {
            throw ContactlessPaymentSessionError(.deviceEnvironmentUnsafe, reason)
        }
        guard wallet.sessions.claim(ObjectIdentifier(self)) else {
            throw ContactlessPaymentSessionError(
                .sessionInProgress, "another payment session of this wallet is running")
        }
        payment.holdsSlot = true
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
        // Cancelled while the store was read: cancel() has reported and finished it; nothing to start.
        if payment.ended { return }
        payment.digitalCardID = record.digitalCardID
        let core = SessionCore(
            card: card, digitalCardID: record.digitalCardID, profile: profile, events: payment.continuation,
            clock: configuration.clock,
            limits: SessionCore.Limits(
                maximumSessionDuration: configuration.maximumSessionDuration,
                authenticationValidity: configuration.authenticationValidity),
            integrityCheck: configuration.device.integrityCheck)
        payment.core = core
        let id = payment.id
        payment.driver = Task { await self.drive(core, paymentID: id) }
        payment.continuation.yield(.authenticationRequired(Authentication(session: self, paymentID: id)))
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

    /// ``Authentication/proceed()`` for payment `paymentID`: the device asks the cardholder. An authentication
    /// request of an earlier payment does nothing.
    func authenticate(paymentID: Int) async {
        guard let payment, payment.id == paymentID, let core = payment.core,
            core.currentPhase == .awaitingAuthentication
        else { return }
        let result = await wallet.configuration.device.authenticateUser(alertMessage)
        switch result {
        case .success:
            // The wallet's passes go in the same tap; a store that does not open fails the payment, as for cards.
            do {
                field.servePasses(try await wallet.store.passes(), clock: wallet.configuration.clock)
            } catch {
                core.fail(ContactlessPaymentSessionError(.keychainError, "the wallet's store does not open"))
                return
            }
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

    /// ``Authentication/cancel()`` for payment `paymentID`; an earlier payment's does nothing.
    func cancel(paymentID: Int) async {
        guard let payment, payment.id == paymentID else { return }
        await cancel(payment)
    }

    /// Waits for the end of payment `paymentID`, checking the deadlines meanwhile, then finishes it.
    private func drive(_ core: SessionCore, paymentID: Int) async {
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
        guard let payment, payment.id == paymentID else { return }
        await finish(payment)
    }

    /// Takes the payment's card and sheet away, spends its used key in the store, frees the wallet's payment slot
    /// and finishes the payment's event stream; the session is then free for the next payment.
    private func finish(_ payment: Payment) async {
        guard !payment.ended else { return }
        payment.ended = true
        if let core = payment.core {
            field.withdraw(core)
            if let digitalCardID = payment.digitalCardID, let atc = core.lastATC {
                _ = try? await wallet.store.update(digitalCardID) { $0.spend(through: atc) }
            }
        }
        if payment.sheetShown {
            payment.sheetShown = false
            wallet.configuration.device.updateEmulationSheet(.dismissed)
        }
        if payment.holdsSlot { wallet.sessions.release(ObjectIdentifier(self)) }
        payment.continuation.finish()
        if self.payment === payment { self.payment = nil }
        payment.resumeWaiters()
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

extension ContactlessPaymentSession {
    /// One payment of the session, from ``startPayment(withDigitalCardID:)`` to its last event. Used on the
    /// session's actor only.
    fileprivate final class Payment {
        let id: Int
        let continuation: AsyncStream<Event>.Continuation
        var core: SessionCore?
        var digitalCardID: String?
        var driver: Task<Void, Never>?
        var holdsSlot = false
        /// The emulation sheet is up.
        var sheetShown = false
        /// ``ContactlessPaymentSession/finish(_:)`` has begun.
        var ended = false
        private var waiters: [CheckedContinuation<Void, Never>] = []
        private var done = false

        init(id: Int, continuation: AsyncStream<Event>.Continuation) {
            self.id = id
            self.continuation = continuation
        }

        /// Returns once the payment has finished.
        func finished(isolation: isolated (any Actor)? = #isolation) async {
            guard !done else { return }
            await withCheckedContinuation { waiters.append($0) }
        }

        func resumeWaiters() {
            done = true
            for waiter in waiters { waiter.resume() }
            waiters = []
        }
    }

    /// The session's event stream: the one handed out now, and whether its payment has begun. Read from any thread
    /// (``eventStream`` is nonisolated), so behind a lock.
    fileprivate final class EventStreams: @unchecked Sendable {
        private let lock = NSLock()
        private var current = ContactlessPaymentEventStream.makeStream()
        private var taken = false

        var stream: ContactlessPaymentEventStream { lock.withLock { current.stream } }

        /// The continuation of the payment that begins now: the stream handed out so far if no payment used it
        /// yet, else a new one.
        func begin() -> AsyncStream<Event>.Continuation {
            lock.withLock {
                if taken { current = ContactlessPaymentEventStream.makeStream() }
                taken = true
                return current.continuation
            }
        }
    }
}
