import EMV
import Foundation
import GatewayAPI
import ReaderKernel
import SmartCard
import ValueAddedServices

/// The reader's I/O shell, shared by ``PaymentCardReader`` and its sessions: runs the gateway calls, the kernel over
/// the contactless interface and the PIN pad, following ``ReaderState``'s rules, and emits the events.
actor ReaderCore {
    /// The 55 s after a read in which its PIN may be captured (DESIGN.md; the gateway enforces it too).
    static let pinWindow: TimeInterval = 55

    let options: PaymentCardReader.Options
    let environment: ReaderEnvironment
    /// The PSP when the environment names one; else each token's issuer's (see ``client(for:)``).
    private let fixedClient: GatewayClient?
    private var issuerClients: [String: GatewayClient] = [:]
    private let events: EventBroadcast
    private let observer: (@Sendable (PaymentCardReader.Event) -> Void)?

    private var state = ReaderState()
    private var prepared: Prepared?
    /// Cancels the card wait or PIN entry in progress.
    private var cancelPending: (@Sendable () -> Void)?
    /// Why the operation in progress is being interrupted.
    private var interruption: PaymentCardReaderSession.ReadError?
    /// With `returnReadResultImmediately`: the sheet of the last result is still closing.
    private var sheetOpen = false
    /// Reads whose PIN may still be captured, by read id: the PAN (for the ISO 9564 format 4 block) in memory only.
    private var pinReads: [String: PINRead] = [:]
    /// A device configuration still running after the app went to the background during its prepare; the next
    /// prepare finishes it.
    private var configuring: Task<ReaderProvisioning, any Error>?
    /// Resumes the prepare waiting for ``configuring`` with `serviceConnectionError` when the app leaves.
    private var abandonPrepare: (@Sendable () -> Void)?

    /// A prepared device: its provisioning and the kernel configured from it.
    private struct Prepared {
        var session: Int
        var provisioning: ReaderProvisioning
        var kernel: ReaderKernel
        var sealer: CardDataSealer
    }

    /// A read whose PIN the issuer may still ask for: its card data (in memory only) to seal again with the PIN.
    private struct PINRead {
        var readID: UUID
        var data: CardAuthorizationData
        var readAt: Date
        var pinKey: [UInt8]
        var aid: String?
    }

    init(
        options: PaymentCardReader.Options, environment: ReaderEnvironment,
        events: EventBroadcast, observer: (@Sendable (PaymentCardReader.Event) -> Void)?
    ) {
        self.options = options
        self.environment = environment
        fixedClient = environment.gateway.map(GatewayClient.init(transport:))
        self.events = events
        self.observer = observer
    }

    deinit { events.finish() }

    private func emit(_ event: PaymentCardReader.Event) {
        observer?(event)
        events.yield(event)
    }

    /// The PSP of `token`: the environment's, or the one the token names as its issuer (an http or https base URL).
    private func client(for token: String) throws(PaymentCardReaderError) -> GatewayClient {
        if let fixedClient { return fixedClient }
        guard let issuer = ReaderTokenIssuer(token: token)?.baseURL else {
            throw .invalidReaderToken("the reader token names no PSP (its iss claim)")
        }
        if let client = issuerClients[issuer] { return client }
        let client = GatewayClient(transport: HTTPGatewayTransport(baseURL: issuer))
        issuerClients[issuer] = client
        return client
    }

    // MARK: - Account

    func isAccountLinked(token: String) async throws -> Bool {
        try Self.checkToken(token)
        do {
            return try await client(for: token).accountLinkStatus(token: token, deviceId: environment.deviceID).isLinked
        } catch {
            throw Self.readerError(error, otherwise: .accountLinkingCheckFailed)
        }
    }

    func link(token: String, relink: Bool) async throws {
        try Self.checkToken(token)
        do {
            _ = try await client(for: token).link(token: token, deviceId: environment.deviceID, relink: relink)
        } catch {
            throw Self.readerError(error, otherwise: .accountLinkingFailed)
        }
    }

    // MARK: - Prepare

    func prepare(token: String) async throws -> Int {
        guard environment.interface != nil else { throw PaymentCardReaderError.unsupported }
        try Self.checkToken(token)
        try state.beginPrepare()
        var finished = false
        defer { if !finished { _ = state.endPrepare(succeeded: false) } }
        let provisioning: ReaderProvisioning
        do {
            provisioning = try await configure(token: token)
        } catch {
            throw Self.readerError(error, otherwise: .prepareFailed(nil))
        }
        let kernel: ReaderKernel
        let sealer: CardDataSealer
        do {
            // The payload's JSON is the kernel configuration's JSON, which validates every field.
            let configuration = try JSONDecoder().decode(
                ReaderConfiguration.self, from: JSONEncoder().encode(provisioning.readerConfiguration))
            kernel = ReaderKernel(
                configuration: configuration, clock: environment.clock, timeZone: environment.timeZone)
            sealer = try provisioning.cardDataKey.sealer()
        } catch {
            throw PaymentCardReaderError.prepareFailed("the PSP's reader configuration or card data key is not usable")
        }
        guard provisioning.pinKey.key.count == 16 else {
            throw PaymentCardReaderError.prepareFailed("the PSP's PIN key is not an AES-128 key")
        }
        finished = true
        guard let session = state.endPrepare(succeeded: true) else {
            throw PaymentCardReaderError.prepareFailed("the prepare ended without a session")
        }
        prepared = Prepared(session: session, provisioning: provisioning, kernel: kernel, sealer: sealer)
        return session
    }

    /// The device's configuration at the PSP, progress emitted as it goes. It runs in a task of its own: when the
    /// app goes to the background the prepare throws `serviceConnectionError` at once while the configuration goes
    /// on, and the next prepare finishes it (or, if it failed, configures again).
    private func configure(token: String) async throws -> ReaderProvisioning {
        if let earlier = configuring {
            do {
                return try await finish(earlier)
            } catch PaymentCardReaderError.serviceConnectionError {
                throw PaymentCardReaderError.serviceConnectionError
            } catch {
                // It failed while the app was away: configure again.
            }
        }
        let client = try client(for: token)
        let deviceID = environment.deviceID
        let observer = self.observer
        let events = self.events
        let task = Task {
            try await client.prepare(token: token, deviceId: deviceID) { percent in
                observer?(.updateProgress(percent))
                events.yield(.updateProgress(percent))
            }
        }
        configuring = task
        return try await finish(task)
    }

    /// The configuration's result; it is forgotten once it has one, and kept when only the app left.
    private func finish(_ task: Task<ReaderProvisioning, any Error>) async throws -> ReaderProvisioning {
        do {
            let provisioning = try await wait(for: task)
            configuring = nil
            return provisioning
        } catch PaymentCardReaderError.serviceConnectionError {
            throw PaymentCardReaderError.serviceConnectionError
        } catch {
            configuring = nil
            throw error
        }
    }

    /// The configuration's result, or `serviceConnectionError` as soon as the app goes to the background.
    private func wait(for task: Task<ReaderProvisioning, any Error>) async throws -> ReaderProvisioning {
        defer { abandonPrepare = nil }
        return try await withCheckedThrowingContinuation { continuation in
            let once = ResumeOnce(continuation)
            abandonPrepare = { once.resume(with: .failure(PaymentCardReaderError.serviceConnectionError)) }
            Task { once.resume(with: await task.result) }
        }
    }

    // MARK: - Lifecycle

    func enterBackground() {
        abandonPrepare?()
        abandonPrepare = nil
        let wasBusy = state.enterBackground()
        if wasBusy {
            interruption = .readFromBackgroundError
            cancelPending?()
        } else if sheetOpen {
            sheetOpen = false
            emit(.userInterfaceDismissed)
        }
        emit(.notReady)
    }

    func enterForeground() { state.enterForeground() }

    // MARK: - Reads

    /// What one tap read: the payment card, the loyalty passes, or both.
    struct TapResult: Sendable {
        var payment: PaymentCardReadResult?
        var vas: VASReadResult?
    }

    /// A read's loyalty step: what to ask the wallet for, and whether a pass ends the tap before payment.
    struct VASPlan: Sendable {
        var request: VASReader.Request
        var stopOnResult: Bool
    }

    func read(_ plan: ReadPlan, session: Int) async throws -> PaymentCardReadResult {
        guard let payment = try await read(plan, vas: nil, session: session).payment else {
            throw failed(.cardReadFailed)  // a read without a VAS step always ends with the payment card
        }
        return payment
    }

    /// One tap: the VAS step when `vas` asks for one, then the payment kernel when `plan` asks for a payment (and a
    /// pass did not end the tap). A failed tap is retried up to the environment's attempts.
    func read(_ plan: ReadPlan?, vas: VASPlan?, session: Int) async throws -> TapResult {
        let prepared = try beginOperation(session: session)
        defer { endOperation() }
        guard let interface = environment.interface else {
            throw PaymentCardReaderError.unsupported
        }
        var attempt = 0
        while true {
            attempt += 1
            emit(.readyForTap)
            let channel: any CardChannel
            do {
                channel = try await cancellable { try await interface.waitForCard() }
            } catch {
                throw interrupted(interfaceFailed: true)
            }
            emit(.cardDetected)
            var passes: VASReadResult?
            if let vas {
                let outcome: VASReader.Outcome
                do {
                    outcome = try await VASReader.read(vas.request, over: channel)
                } catch {
                    if interruption != nil { throw interrupted() }
                    guard attempt < environment.maximumTapAttempts else { throw failed(.vasReadFail) }
                    emit(.readRetry)
                    continue
                }
                if interruption != nil { throw interrupted() }
                passes = VASReadResult(outcome, id: UUID.timeOrdered().lowercaseText)
                if plan == nil || (vas.stopOnResult && outcome.hasPass) {
                    guard let passes else { throw failed(.vasReadFail) }  // no wallet in the field
                    emit(.removeCard)
                    emit(.readCompleted)
                    closeSheet()
                    return TapResult(payment: nil, vas: passes)
                }
            }
            guard let plan else { throw failed(.vasReadFail) }
            if let payment = try await readPayment(
                plan, over: channel, interface: interface, prepared: prepared,
                lastAttempt: attempt
                    >= environment.maximumTapAttempts)
            {
                return TapResult(payment: payment, vas: passes)
            }
            emit(.readRetry)
        }
    }

    /// The payment kernel over the tapped card: the sealed read, or nil when the tap should be retried.
    private func readPayment(
        _ plan: ReadPlan, over channel: any CardChannel, interface: any ContactlessInterface, prepared: Prepared,
        lastAttempt: Bool
    ) async throws -> PaymentCardReadResult? {
        let result = await prepared.kernel.perform(plan.transaction, over: channel)
        if interruption != nil { throw interrupted() }
        let outcome = result.outcome
        // A refund's card answers with an AAC by design (nothing is authorized): its data is the refund's.
        let isRefund = plan.transaction.type == .refund
        switch (outcome.status, outcome.authorizationData) {
        case (.onlineRequest, let data?) where outcome.cardholderVerification == .onlinePIN && !isRefund:
            // The kernel chose online PIN (the card's CVM rules): the PIN goes with the read, in one request.
            emit(.removeCard)
            let readID = UUID.timeOrdered()
            let now = environment.clock()
            let block = try await enterPIN(
                on: interface, readID: readID.lowercaseText, pan: data.pan,
                key: Array(prepared.provisioning.pinKey.key), deadline: now.addingTimeInterval(Self.pinWindow))
            let read = try seal(
                data, label: result.applicationLabel, plan: plan, prepared: prepared, outcome: .success,
                readID: readID, pinBlock: block)
            emit(.readCompleted)
            closeSheet()
            return read
        case (.onlineRequest, let data?), (.approved, let data?),
            (.declined, let data?) where isRefund:
            emit(.removeCard)
            let read = try seal(
                data, label: result.applicationLabel, plan: plan, prepared: prepared, outcome: .success)
            emit(.readCompleted)
            closeSheet()
            return read
        case (.declined, let data):
            emit(.removeCard)
            if options.includeErrorInReadResult, let data {
                let read = try seal(
                    data, label: result.applicationLabel, plan: plan, prepared: prepared, outcome: .cardDeclined)
                emit(.readNotCompleted)
                closeSheet()
                return read
            }
            throw failed(.paymentCardDeclined)
        case (.tryAgain, _) where !lastAttempt:
            return nil
        case (.tryAgain, _):
            throw failed(.cardReadFailed)
        default:
            throw Self.isUnsupported(outcome)
                ? failed(.cardNotSupported)
                : failed(.cardReadFailed)
        }
    }

    func merchantName(session: Int) -> String? {
        guard let prepared, prepared.session == session else { return nil }
        return prepared.provisioning.merchantName
    }

    func gatewaySession(session: Int) -> ReaderProvisioning.ReaderSession? {
        guard let prepared, prepared.session == session else { return nil }
        return prepared.provisioning.session
    }

    func cancelRead(session: Int) -> Bool {
        guard state.isBusy, prepared?.session == session, interruption == nil else { return false }
        interruption = .readCancelled
        cancelPending?()
        return true
    }

    // MARK: - PIN

    func capturePIN(token: String, readID: String, session: Int) async throws -> PaymentCardReadResult {
        guard !token.isEmpty else {
            throw PaymentCardReaderSession.ReadError.pinTokenInvalid
        }
        let prepared = try beginOperation(session: session)
        defer { endOperation() }
        guard let interface = environment.interface else {
            throw PaymentCardReaderError.unsupported
        }
        let now = environment.clock()
        pinReads = pinReads.filter { now.timeIntervalSince($0.value.readAt) <= Self.pinWindow }
        guard let read = pinReads[readID] else {
            throw PaymentCardReaderSession.ReadError.pinNotAllowed
        }
        let deadline = read.readAt.addingTimeInterval(Self.pinWindow)
        let block = try await enterPIN(
            on: interface, readID: readID, pan: read.data.pan, key: read.pinKey, deadline: deadline)
        // As Apple's: the read's card data and the PIN, sealed together (the same read id, so the PSP takes it only
        // for this read's payment).
        let paymentCardData = try block.map { block in
            try sealedText(
                CardDataPayload(
                    readId: read.readID, deviceId: prepared.provisioning.deviceId,
                    merchantId: prepared.provisioning.merchantId, createdAt: environment.clock(),
                    authorization: read.data, pinBlock: block),
                prepared: prepared)
        }
        closeSheet()
        return PaymentCardReadResult(
            id: readID, paymentCardData: paymentCardData, generalCardData: nil, outcome: .success,
            pinBypassed: block == nil, isPINFallback: true, applicationTypeIdentifier: read.aid)
    }

    /// Asks the cardholder for the PIN of `readID` on the interface's PIN pad: the ISO 9564 format 4 block of the
    /// PIN under the device's PIN key, or nil when the cardholder bypassed entry.
    /// - Throws: ``PaymentCardReaderSession/ReadError`` `pinCancelled`, `pinEntryTimeout` (the pad timed out, or the
    ///   PIN came after `deadline`), `pinEntryFailed`, or the interruption's error.
    private func enterPIN(
        on interface: any ContactlessInterface, readID: String, pan: PAN, key: [UInt8], deadline: Date
    ) async throws -> [UInt8]? {
        emit(.pinEntryRequested)
        let entry: PINEntry
        do {
            entry = try await cancellable {
                await interface.enterPIN(PINEntryRequest(readID: readID, deadline: deadline))
            }
        } catch {
            throw interrupted(interfaceFailed: true)
        }
        emit(.pinEntryCompleted)
        if interruption != nil { throw interrupted() }
        switch entry {
        case .cancelled:
            throw dismissing(.pinCancelled)
        case .timedOut:
            throw dismissing(.pinEntryTimeout)
        case .bypassed:
            return nil
        case .entered(let pin):
            guard environment.clock() <= deadline else {
                throw dismissing(.pinEntryTimeout)
            }
            do {
                return try PINBlock.encipherISO4(pin: pin, pan: pan.digits, key: key)
            } catch {
                throw dismissing(.pinEntryFailed)
            }
        }
    }

    // MARK: - Helpers

    private func beginOperation(session: Int) throws -> Prepared {
        try state.beginOperation(
            session: session, now: environment.clock(),
            expiresAt: prepared?.provisioning.session.expiresAt ?? .distantPast)
        interruption = nil
        if sheetOpen {
            sheetOpen = false
            emit(.userInterfaceDismissed)
        }
        guard let prepared, prepared.session == session else {
            state.endOperation()
            throw PaymentCardReaderSession.ReadError.noReaderSession
        }
        return prepared
    }

    private func endOperation() {
        state.endOperation()
        interruption = nil
        cancelPending = nil
    }

    /// Runs `body` so that ``cancelRead(session:)`` and backgrounding can cancel it.
    private func cancellable<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        // A task of its own because the read's task belongs to the app; it is awaited at once.
        let task = Task { try await body() }
        cancelPending = { task.cancel() }
        if interruption != nil { task.cancel() }
        defer { cancelPending = nil }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// The error for an interrupted operation, its events emitted; when nothing interrupted it and
    /// `interfaceFailed`, the interface (card wait or PIN pad) failed (`cardReadFailed`), unless the app cancelled
    /// the task it reads in (`readCancelled`).
    private func interrupted(interfaceFailed: Bool = false) -> any Error {
        if interruption == nil {
            guard Task.isCancelled || !interfaceFailed else { return failed(.cardReadFailed) }
            interruption = .readCancelled
        }
        switch interruption {
        case .readCancelled?:
            emit(.readCancelled)
            emit(.userInterfaceDismissed)
            return PaymentCardReaderSession.ReadError.readCancelled
        default:
            emit(.readNotCompleted)
            emit(.userInterfaceDismissed)
            return PaymentCardReaderSession.ReadError.readFromBackgroundError
        }
    }

    /// A read that ended without a result: its events and error.
    private func failed(_ error: PaymentCardReaderSession.ReadError) -> any Error {
        emit(.readNotCompleted)
        emit(.userInterfaceDismissed)
        return error
    }

    /// A PIN capture that ended without a result: the sheet closes.
    private func dismissing(_ error: PaymentCardReaderSession.ReadError) -> any Error {
        emit(.userInterfaceDismissed)
        return error
    }

    /// The sheet closes now, or with `returnReadResultImmediately` when the session is next used.
    private func closeSheet() {
        if options.returnReadResultImmediately {
            sheetOpen = true
        } else {
            emit(.userInterfaceDismissed)
        }
    }

    /// Seals `data` (with the online PIN block the kernel's CVM asked for, when there is one) to the PSP as a new
    /// read and remembers its PAN for a PIN capture within 55 s.
    private func seal(
        _ data: CardAuthorizationData, label: String?, plan: ReadPlan, prepared: Prepared,
        outcome: PaymentCardReadResult.ReadOutcome, readID: UUID = .timeOrdered(), pinBlock: [UInt8]? = nil
    ) throws -> PaymentCardReadResult {
        let now = environment.clock()
        let payload = CardDataPayload(
            readId: readID, deviceId: prepared.provisioning.deviceId, merchantId: prepared.provisioning.merchantId,
            createdAt: now,
            authorization: data, pinBlock: pinBlock)
        let encoded: String
        do {
            encoded = try sealedText(payload, prepared: prepared)
        } catch {
            throw failed(.cardReadFailed)
        }
        let id = payload.readId.lowercaseText
        let aid = data.iccValue(.dedicatedFileName)?.hexString
        pinReads = pinReads.filter { now.timeIntervalSince($0.value.readAt) <= Self.pinWindow }
        pinReads[id] = PINRead(
            readID: payload.readId, data: data, readAt: now, pinKey: Array(prepared.provisioning.pinKey.key), aid: aid)
        return PaymentCardReadResult(
            id: id, paymentCardData: encoded,
            generalCardData: plan.generalCardData(
                data, label: label, configuration: prepared.kernel.configuration)?.base64EncodedString(),
            outcome: outcome, applicationTypeIdentifier: aid)
    }

    /// `payload` sealed to the PSP, as `paymentCardData` carries it: base64 of the sealed data's JSON.
    private func sealedText(_ payload: CardDataPayload, prepared: Prepared) throws -> String {
        try JSONEncoder.gatewayAPI.encode(try prepared.sealer.seal(payload)).base64EncodedString()
    }

    /// Whether an outcome means this reader cannot take the card at all (rather than a failed read).
    private static func isUnsupported(_ outcome: Outcome) -> Bool {
        if outcome.status == .tryAnotherInterface { return true }
        switch outcome.reason {
        case .proximityEnvironmentUnavailable, .noMutuallySupportedApplication, .candidatesExhausted,
            .unsupportedCard, .cardRequestedAnotherInterface, .amountOverContactlessLimit:
            return true
        default:
            return false
        }
    }

    private static func checkToken(_ token: String) throws(PaymentCardReaderError) {
        guard !token.isEmpty else {
            throw PaymentCardReaderError.emptyReaderToken
        }
    }

    /// The reader error for a failed gateway call: the PSP's codes that have an Apple name get it, anything else
    /// is `otherwise`.
    private static func readerError(_ error: any Error, otherwise: PaymentCardReaderError) -> PaymentCardReaderError {
        guard let failure = error as? GatewayClient.Failure else {
            return error as? PaymentCardReaderError ?? otherwise
        }
        switch failure {
        case .network:
            return .networkError
        case .malformed(let what):
            if case .prepareFailed = otherwise { return .prepareFailed("the PSP's answer was malformed: \(what)") }
            return otherwise
        case .problem(let problem):
            return switch problem.code {
            case .accountNotLinked: .accountNotLinked
            case .accountAlreadyLinked: .accountAlreadyLinked
            case .adminRequired: .notAllowed
            case .relinkNotAllowed: .accountLinkingFailed
            case .merchantBlocked: .deviceBanned(problem.clearsAt)
            case .tokenExpired: .tokenExpired
            case .invalidReaderToken, .tokenRevoked: .invalidReaderToken(problem.message)
            case .unauthorized: .networkAuthenticationError
            case .notFound: .invalidMerchant
            default:
                if case .prepareFailed = otherwise {
                    .prepareFailed("the PSP answered \(problem.code)")
                } else {
                    otherwise
                }
            }
        }
    }
}

extension TransactionResult {
    /// The selected application's label (50), from the card's PPSE entry, when it gave one.
    fileprivate var applicationLabel: String? {
        for case .applicationSelected(let candidate) in events.reversed() { return candidate.label }
        return nil
    }
}

/// Resumes a continuation once, from whichever of its racers comes first.
private final class ResumeOnce<Value: Sendable>: @unchecked Sendable {  // its state is behind the lock
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?

    init(_ continuation: CheckedContinuation<Value, any Error>) { self.continuation = continuation }

    func resume(with result: Result<Value, any Error>) {
        let pending: CheckedContinuation<Value, any Error>? = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        pending?.resume(with: result)
    }
}
