import EMV
import Foundation
import GatewayAPI
public import ServiceLifecycle

/// The server-driven readers connected to this gateway: each reader's command, its events and who listens to them.
///
/// A reader (`tap reader`, a reader session) long-polls for work (``nextInstruction(for:wait:running:)``); a
/// point-of-sale app sends it a command (``send(_:to:merchantId:)``) and follows its events
/// (``subscribe(merchantId:readerId:after:)``). The reader reports its SDK's events as it reads and hands the sealed
/// read to the gateway (``ReaderController``), which authorizes it with ``PaymentService`` as the command says. One
/// command runs at a time per reader.
///
/// A reader is online while it asks for work within ``timeout``; the sweep (``run()``, every quarter of it) marks
/// one that stopped disconnected and ends its command: failed before its card data reached the gateway, its payment
/// voided if it awaited the reader's PIN, left to finish if its authorization is in flight (the payment's own
/// reversal rules apply there).
///
/// State lives in this process's memory: the reader and the point-of-sale app must reach the same gateway process.
public actor ReaderHub: Service {
    /// A reader of a merchant.
    struct Key: Hashable {
        var merchantId: String
        var readerId: String
    }

    /// One reader's state.
    struct Reader {
        var lastSeen: Date?
        var online = false
        var waiter: (id: UUID, continuation: CheckedContinuation<ReaderInstruction?, Never>)?
        var command: ReaderCommand?
        /// The command's card data reached the gateway: it can no longer be canceled.
        var submitted = false
        /// The command's payment awaits the reader's PIN.
        var paymentAwaitingPIN: String?
        var cancelRequested = false
        var cancelDelivered = false
        var sequence = 0
        var events: [ReaderEvent] = []
        var subscribers: [UUID: AsyncStream<ReaderEvent>.Continuation] = [:]
        /// The device's first configuration, in percent, while the gateway performs it.
        var configuring: Int?

        var runningCommand: ReaderCommand? { command.flatMap { $0.status.isFinal ? nil : $0 } }
    }

    /// How long a reader may go without asking for work before it counts as disconnected.
    public nonisolated let timeout: TimeInterval
    /// The events kept per reader for clients that reconnect (`Last-Event-ID`).
    static let retainedEvents = 200
    private let clock: @Sendable () -> Date
    private var readers: [Key: Reader] = [:]
    /// Recent commands by id (the last ``retainedCommands``), for the point of sale's screens.
    private var recent: [String: (merchantId: String, command: ReaderCommand)] = [:]
    private var recentOrder: [String] = []
    static let retainedCommands = 1_000
    /// Voids a payment whose PIN will not come (the reader disconnected or the cardholder canceled PIN entry).
    private var voidAwaitingPIN: (@Sendable (_ paymentId: String, _ key: Key) async -> Void)?

    /// Creates the hub; readers count as disconnected after `timeout` seconds without asking for work.
    public init(timeout: TimeInterval = 30, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.timeout = timeout
        self.clock = clock
    }

    func onVoidAwaitingPIN(_ void: @escaping @Sendable (_ paymentId: String, _ key: Key) async -> Void) {
        voidAwaitingPIN = void
    }

    // MARK: - The merchant's side

    /// Sends `request` to the reader.
    /// - Throws: ``GatewayAPIError`` `invalidRequest` (amount, currency or fields that do not fit the type),
    ///   `readerOffline`, `readerBusy`.
    func send(_ request: CreateReaderCommandRequest, to readerId: String, merchantId: String) throws(GatewayAPIError)
        -> ReaderCommand
    {
        try Self.validate(request)
        let key = Key(merchantId: merchantId, readerId: readerId)
        var reader = readers[key] ?? Reader()
        guard isOnline(reader, now: clock()) else {
            throw GatewayAPIError(code: .readerOffline, message: "reader \(readerId) is not connected")
        }
        if let running = reader.runningCommand {
            throw GatewayAPIError(
                code: .readerBusy, message: "reader \(readerId) is running command \(running.id); cancel it first")
        }
        let command = ReaderCommand(
            id: EntityID.make("rcmd"), readerId: readerId, request: request, createdAt: clock())
        reader.command = command
        remember(command, merchantId: merchantId)
        reader.submitted = false
        reader.paymentAwaitingPIN = nil
        reader.cancelRequested = false
        reader.cancelDelivered = false
        readers[key] = reader
        if let waiter = readers[key]?.waiter {
            readers[key]?.waiter = nil
            waiter.continuation.resume(returning: start(key))
        }
        return command
    }

    /// Cancels the reader's running command: at once if the reader has not picked it up, else by telling the reader
    /// (the command ends when it stops reading).
    /// - Throws: ``GatewayAPIError`` `invalidState` when no command runs or its card data already reached the
    ///   gateway (void or refund the payment instead).
    func cancel(readerId: String, merchantId: String) throws(GatewayAPIError) -> ReaderCommand {
        let key = Key(merchantId: merchantId, readerId: readerId)
        guard let reader = readers[key], let command = reader.runningCommand else {
            throw GatewayAPIError(code: .invalidState, message: "reader \(readerId) runs no command")
        }
        guard !reader.submitted else {
            throw GatewayAPIError(
                code: .invalidState,
                message: "the card was read and sent for authorization; void or refund the payment instead")
        }
        if command.status == .pending {
            return finish(key, .canceled, ReaderCommandResult(failure: .init(code: "canceled", message: "Canceled.")))
        }
        readers[key]?.cancelRequested = true
        if let waiter = readers[key]?.waiter {
            readers[key]?.waiter = nil
            readers[key]?.cancelDelivered = true
            waiter.continuation.resume(returning: ReaderInstruction(cancel: command.id))
        }
        return command
    }

    /// A recent command of the merchant, as it is now.
    func command(_ id: String, merchantId: String) -> ReaderCommand? {
        guard let entry = recent[id], entry.merchantId == merchantId else { return nil }
        return Self.public(entry.command)
    }

    private func remember(_ command: ReaderCommand, merchantId: String) {
        if recent.updateValue((merchantId, command), forKey: command.id) == nil {
            recentOrder.append(command.id)
            if recentOrder.count > Self.retainedCommands {
                recent[recentOrder.removeFirst()] = nil
            }
        }
    }

    /// The device's first configuration (prepare) reached `progress` percent; nil when it ended or failed. The
    /// readers' list and event stream show it, so a point of sale can show determinate progress.
    func configuring(merchantId: String, readerId: String, progress: Int?) {
        let key = Key(merchantId: merchantId, readerId: readerId)
        readers[key, default: Reader()].configuring = progress.flatMap { $0 < 100 ? $0 : nil }
        emit(key, .configuring, progress: progress)
    }

    /// Each known reader's state, by reader id.
    func statuses(merchantId: String) -> [String: ReaderStatus] {
        let now = clock()
        var statuses: [String: ReaderStatus] = [:]
        for (key, reader) in readers where key.merchantId == merchantId {
            statuses[key.readerId] = ReaderStatus(
                id: key.readerId, online: isOnline(reader, now: now), command: reader.runningCommand.map(Self.public),
                lastSeenAt: reader.lastSeen, configuring: reader.configuring)
        }
        return statuses
    }

    /// The reader's events after `sequence` (those kept), then each new one as it happens.
    func subscribe(merchantId: String, readerId: String, after sequence: Int?) -> AsyncStream<ReaderEvent> {
        let key = Key(merchantId: merchantId, readerId: readerId)
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(
            of: ReaderEvent.self, bufferingPolicy: .bufferingNewest(500))
        var reader = readers[key] ?? Reader()
        if let sequence {
            for event in reader.events where event.sequence > sequence { continuation.yield(event) }
        }
        reader.subscribers[id] = continuation
        readers[key] = reader
        continuation.onTermination = { _ in Task { await self.unsubscribe(key, id) } }
        return stream
    }

    private func unsubscribe(_ key: Key, _ id: UUID) { readers[key]?.subscribers[id] = nil }

    // MARK: - The reader's side

    /// The reader's next instruction: a cancel of its running command, a new command, or after `wait` nothing.
    /// `running` is the command the reader runs: a command the gateway thinks in progress that the reader does not
    /// run (it restarted) fails.
    func nextInstruction(for key: Key, wait: Duration, running: String?) async -> ReaderInstruction? {
        seen(key)
        if let command = readers[key]?.runningCommand, command.status == .inProgress, command.id != running,
            readers[key]?.submitted == false
        {
            fail(key, code: "readerRestarted", message: "The reader restarted and lost the command.")
        }
        if let instruction = immediateInstruction(key) { return instruction }
        // One poll at a time: an older one (a connection the reader gave up) ends empty.
        if let old = readers[key]?.waiter {
            readers[key]?.waiter = nil
            old.continuation.resume(returning: nil)
        }
        let id = UUID()
        let instruction = await withCheckedContinuation { continuation in
            readers[key]?.waiter = (id, continuation)
            Task {
                try? await Task.sleep(for: wait)
                await self.endWait(key, id)
            }
        }
        seen(key)
        return instruction
    }

    private func immediateInstruction(_ key: Key) -> ReaderInstruction? {
        guard let reader = readers[key], let command = reader.runningCommand else { return nil }
        if command.status == .pending { return start(key) }
        if reader.cancelRequested && !reader.cancelDelivered && !reader.submitted {
            readers[key]?.cancelDelivered = true
            return ReaderInstruction(cancel: command.id)
        }
        return nil
    }

    private func endWait(_ key: Key, _ id: UUID) {
        guard let waiter = readers[key]?.waiter, waiter.id == id else { return }
        readers[key]?.waiter = nil
        waiter.continuation.resume(returning: nil)
    }

    /// The pending command, now in progress.
    private func start(_ key: Key) -> ReaderInstruction? {
        guard var command = readers[key]?.runningCommand, command.status == .pending else { return nil }
        command.status = .inProgress
        readers[key]?.command = command
        remember(command, merchantId: key.merchantId)
        emit(key, .commandStarted)
        return ReaderInstruction(command: command)
    }

    /// Records an event the reader's SDK reported for its running command `commandId`.
    /// - Throws: `invalidRequest` for a kind the gateway records itself; `invalidState` for a command not running.
    func report(_ type: ReaderEvent.Kind, commandId: String, key: Key) throws(GatewayAPIError) {
        guard Self.readerReported.contains(type) else {
            throw GatewayAPIError(code: .invalidRequest, message: "\(type) is not an event a reader reports")
        }
        _ = try running(commandId, key)
        seen(key)
        emit(key, type)
    }

    /// The kinds of event the reader reports; the gateway records the rest.
    static let readerReported: Set<ReaderEvent.Kind> = [
        .readyForTap, .cardDetected, .removeCard, .readRetry, .pinEntryRequested, .pinEntryCompleted,
        .readCompleted, .readNotCompleted,
    ]

    /// Marks the running command's card data as reaching the gateway (no cancel from now on) and tells the
    /// listeners it is authorizing; the command, to authorize as it says.
    /// - Throws: `invalidState` for a command not running, canceled, a loyalty read, or whose read was already
    ///   submitted.
    func beginAuthorization(commandId: String, key: Key) throws(GatewayAPIError) -> ReaderCommand {
        let command = try running(commandId, key)
        guard command.type != .loyalty else {
            throw GatewayAPIError(code: .invalidState, message: "a loyalty read has no card data to authorize")
        }
        guard readers[key]?.submitted == false else {
            throw GatewayAPIError(code: .invalidState, message: "command \(commandId) already has its read")
        }
        readers[key]?.submitted = true
        seen(key)
        emit(key, .authorizing)
        return command
    }

    /// The command's payment awaits the reader's PIN: the command goes on, its result shows the payment (and the
    /// loyalty pass read in the same tap).
    func awaitPIN(
        _ payment: Payment, loyalty: ReaderLoyaltyResult?, commandId: String, key: Key
    ) -> ReaderCommand? {
        guard var command = readers[key]?.runningCommand, command.id == commandId else { return nil }
        command.result = ReaderCommandResult(payment: payment, loyalty: loyalty)
        readers[key]?.command = command
        remember(command, merchantId: key.merchantId)
        readers[key]?.paymentAwaitingPIN = payment.id
        return command
    }

    /// The payment the running command `commandId` awaits a PIN for.
    /// - Throws: `invalidState` when the command is not running or awaits no PIN.
    func paymentAwaitingPIN(commandId: String, key: Key) throws(GatewayAPIError) -> String {
        _ = try running(commandId, key)
        guard let payment = readers[key]?.paymentAwaitingPIN else {
            throw GatewayAPIError(code: .invalidState, message: "command \(commandId) awaits no PIN")
        }
        seen(key)
        return payment
    }

    /// Ends the running command `commandId` with `result` (completed, or failed without an outcome).
    @discardableResult
    func end(
        commandId: String, key: Key, _ status: ReaderCommand.Status, _ result: ReaderCommandResult
    ) -> ReaderCommand? {
        guard readers[key]?.runningCommand?.id == commandId else { return nil }
        return finish(key, status, result)
    }

    /// The loyalty read's result: the command completes with it.
    /// - Throws: `invalidState` for a command not running or not a loyalty read.
    func loyaltyRead(_ result: ReaderLoyaltyResult, commandId: String, key: Key) throws(GatewayAPIError)
        -> ReaderCommand
    {
        let command = try running(commandId, key)
        guard command.type == .loyalty else {
            throw GatewayAPIError(code: .invalidState, message: "command \(commandId) is not a loyalty read")
        }
        seen(key)
        return finish(key, .completed, ReaderCommandResult(loyalty: result))
    }

    /// The reader could not read the card (or the cardholder canceled): the command fails, or is canceled when that
    /// was asked. A payment awaiting the PIN is voided.
    func readerFailed(commandId: String, key: Key, _ failure: ReaderFailureReport) throws(GatewayAPIError)
        -> ReaderCommand
    {
        _ = try running(commandId, key)
        seen(key)
        let canceled = readers[key]?.cancelRequested == true && failure.code == "readCancelled"
        return finishVoidingPIN(key, canceled ? .canceled : .failed, failure)
    }

    private func running(_ commandId: String, _ key: Key) throws(GatewayAPIError) -> ReaderCommand {
        guard let command = readers[key]?.runningCommand, command.id == commandId, command.status == .inProgress
        else { throw GatewayAPIError(code: .invalidState, message: "command \(commandId) is not running") }
        return command
    }

    // MARK: - Connection

    private func isOnline(_ reader: Reader, now: Date) -> Bool {
        reader.waiter != nil || reader.lastSeen.map { now.timeIntervalSince($0) < timeout } == true
    }

    private func seen(_ key: Key) {
        readers[key, default: Reader()].lastSeen = clock()
        if readers[key]?.online == false {
            readers[key]?.online = true
            emit(key, .readerConnected)
        }
    }

    /// Marks readers that stopped asking for work disconnected and ends their commands (``run()`` does it
    /// regularly; tests on a hand-moved clock call it).
    package func sweep() {
        let now = clock()
        for (key, reader) in readers where reader.online && !isOnline(reader, now: now) {
            readers[key]?.online = false
            emit(key, .readerDisconnected)
            guard reader.runningCommand != nil else { continue }
            if reader.submitted && reader.paymentAwaitingPIN == nil { continue }  // the authorization finishes it
            finishVoidingPIN(
                key, .failed,
                .init(code: "readerDisconnected", message: "The reader disconnected before the payment finished."))
        }
    }

    @discardableResult
    private func finishVoidingPIN(
        _ key: Key, _ status: ReaderCommand.Status, _ failure: ReaderCommandResult.Failure
    ) -> ReaderCommand {
        let payment = readers[key]?.runningCommand?.result?.payment
        if let paymentId = readers[key]?.paymentAwaitingPIN, let void = voidAwaitingPIN {
            Task { await void(paymentId, key) }
        }
        return finish(key, status, ReaderCommandResult(payment: payment, failure: failure))
    }

    private func fail(_ key: Key, code: String, message: String) {
        finishVoidingPIN(key, .failed, .init(code: code, message: message))
    }

    private func finish(_ key: Key, _ status: ReaderCommand.Status, _ result: ReaderCommandResult) -> ReaderCommand {
        guard var command = readers[key]?.command else { preconditionFailure("finish without a command") }
        var result = result
        // A pass read with the card stays in the result through the PIN's round trip.
        if result.loyalty == nil { result.loyalty = command.result?.loyalty }
        command.status = status
        command.result = result
        readers[key]?.command = command
        remember(command, merchantId: key.merchantId)
        readers[key]?.paymentAwaitingPIN = nil
        emit(key, .commandEnded)
        return Self.public(command)
    }

    private func emit(_ key: Key, _ type: ReaderEvent.Kind, progress: Int? = nil) {
        guard var reader = readers[key] else { return }
        reader.sequence += 1
        var event = ReaderEvent(
            sequence: reader.sequence, readerId: key.readerId, type: type, at: clock(),
            command: type == .configuring ? nil : reader.command.map(Self.public))
        event.progress = progress
        reader.events.append(event)
        if reader.events.count > Self.retainedEvents { reader.events.removeFirst(reader.events.count / 2) }
        for subscriber in reader.subscribers.values { subscriber.yield(event) }
        readers[key] = reader
    }

    /// The command as the merchant's side sees it: without the PIN token, which only the reader uses.
    static func `public`(_ command: ReaderCommand) -> ReaderCommand {
        var command = command
        command.result?.payment?.pinRequest = nil
        return command
    }

    // MARK: - Service

    /// Sweeps every quarter of the timeout until shutdown, then ends every wait and stream.
    public func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(self.timeout / 4)) }
            sweep()
        }
        for key in readers.keys {
            readers[key]?.waiter?.continuation.resume(returning: nil)
            readers[key]?.waiter = nil
            for subscriber in readers[key]?.subscribers.values ?? [:].values { subscriber.finish() }
        }
    }

    // MARK: - Validation

    static func validate(_ request: CreateReaderCommandRequest) throws(GatewayAPIError) {
        guard Currency(alphabeticCode: request.currency)?.alphabeticCode == request.currency else {
            throw GatewayAPIError(code: .invalidRequest, message: "currency is not an ISO 4217 alphabetic code")
        }
        if let passes = request.loyaltyPasses {
            guard request.type == .payment || request.type == .loyalty else {
                throw GatewayAPIError(
                    code: .invalidRequest, message: "loyaltyPasses are for a loyalty read or a payment")
            }
            guard (1...4).contains(passes.count), passes.allSatisfy({ (1...256).contains($0.utf8.count) }) else {
                throw GatewayAPIError(
                    code: .invalidRequest, message: "loyaltyPasses names one to four pass type identifiers")
            }
        }
        switch request.type {
        case .loyalty:
            guard request.loyaltyPasses != nil else {
                throw GatewayAPIError(code: .invalidRequest, message: "a loyalty read names its loyaltyPasses")
            }
            guard request.amount == nil, request.captureMethod == nil, request.verificationReason == nil else {
                throw GatewayAPIError(
                    code: .invalidRequest, message: "a loyalty read has no amount, captureMethod or verificationReason")
            }
        case .payment, .refund:
            guard let amount = request.amount, amount > 0, amount <= 999_999_999_999 else {
                throw GatewayAPIError(code: .invalidRequest, message: "a \(request.type) takes a positive amount")
            }
            guard request.verificationReason == nil else {
                throw GatewayAPIError(code: .invalidRequest, message: "verificationReason is for a verification")
            }
            if request.type == .refund, request.captureMethod != nil {
                throw GatewayAPIError(code: .invalidRequest, message: "a refund has no captureMethod")
            }
        case .verification:
            guard request.amount == nil || request.amount == 0 else {
                throw GatewayAPIError(code: .invalidRequest, message: "a verification has no amount")
            }
            guard request.captureMethod == nil else {
                throw GatewayAPIError(code: .invalidRequest, message: "a verification has no captureMethod")
            }
        }
    }
}
