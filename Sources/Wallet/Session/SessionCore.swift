import CardEmulator
import EMV
import Foundation

/// The card side of one payment session: the session's card applet and the state machine that turns the reader's
/// commands, the field's changes and the clock into the session's events. No I/O; every transport calls it
/// synchronously (the loopback's actor, the vpcd link's thread), so its state is behind a lock.
final class SessionCore: @unchecked Sendable {
    /// Where the session is.
    enum Phase: Equatable {
        /// Waiting for the cardholder's authentication.
        case awaitingAuthentication
        /// Authenticated, card in the field, emulation not started: a reader gets no card yet (field-detect).
        case authenticated
        /// Emulating: readers get the card.
        case emulating
        /// The card made its cryptogram; the reader may still read records of this transaction.
        case completed
        /// Ended with an error.
        case failed
    }

    struct Limits {
        var maximumSessionDuration: TimeInterval
        var authenticationValidity: TimeInterval
    }

    private let lock = NSLock()
    private var card: EmulatedCard
    /// The digital card the session presents.
    private let digitalCardID: String
    private let events: AsyncStream<ContactlessPaymentSession.Event>.Continuation
    private let ended: AsyncStream<Void>.Continuation
    /// Yields once when the session reaches ``Phase/completed`` or ``Phase/failed``.
    let endSignal: AsyncStream<Void>
    private let clock: @Sendable () -> Date
    private let limits: Limits
    private let integrityCheck: @Sendable () -> String?
    private let pdol: DataObjectList?
    private let cdol1: DataObjectList?

    private var phase = Phase.awaitingAuthentication
    private var authenticatedAt: Date?
    private var emulationStartedAt: Date?
    /// `posConnected` was sent and no `posDisconnected` since: the reader's field detections are not reported again.
    private var posAnnounced = false
    /// A reader sent a command since the card was last powered or reset.
    private var connected = false
    /// The reader read the contactless directory (PPSE) in this connection.
    private var directoryRead = false
    /// The application the reader selected in this connection: a transaction is in progress.
    private var selectedAID: [UInt8]?
    private var pdolData: [UInt8] = []
    private(set) var outcome: Result<TransactionContext, ContactlessPaymentSessionError>?

    init(
        card: EmulatedCard, digitalCardID: String, profile: CardProfile,
        events: AsyncStream<ContactlessPaymentSession.Event>.Continuation,
        clock: @escaping @Sendable () -> Date, limits: Limits, integrityCheck: @escaping @Sendable () -> String?
    ) {
        self.card = card
        self.digitalCardID = digitalCardID
        self.events = events
        (endSignal, ended) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.clock = clock
        self.limits = limits
        self.integrityCheck = integrityCheck
        pdol = profile.pdol.flatMap { try? DataObjectList($0.bytes) }
        cdol1 = profile.cdol1.flatMap { try? DataObjectList($0.bytes) }
    }

    /// The ATC of the card's last transaction, for spending its key in the store.
    var lastATC: UInt16? { lock.withLock { card.lastATC } }

    var currentPhase: Phase { lock.withLock { phase } }

    /// The card completed its transaction and the reader is still talking to it (reading records).
    var holdsReader: Bool { lock.withLock { phase == .completed && connected } }

    /// The session's transaction completed or failed.
    var hasEnded: Bool { lock.withLock { phase == .completed || phase == .failed } }

    // MARK: - The session's side

    /// The cardholder authenticated: the card holds the CDCVM for one transaction.
    func authenticated() -> Bool {
        lock.withLock {
            guard phase == .awaitingAuthentication else { return false }
            phase = .authenticated
            authenticatedAt = clock()
            card.authenticateCardholder()
            events.yield(.authenticationCompleted)
            // Thales: after authenticationCompleted, a reader already at the phone is reported.
            if connected { announceReaderLocked() }
            return true
        }
    }

    /// Starts emulation; true when it started now (the emulation sheet goes up), false for a second call while
    /// emulating or after the transaction.
    @discardableResult
    func startEmulation() throws(ContactlessPaymentSessionError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        switch phase {
        case .emulating, .completed: return false
        case .failed: throw outcome?.failure ?? ContactlessPaymentSessionError(.unknown, "the session has ended")
        case .awaitingAuthentication:
            throw ContactlessPaymentSessionError(.unknown, "emulation starts after authenticationCompleted")
        case .authenticated:
            if let reason = integrityCheck() {
                let error = ContactlessPaymentSessionError(.deviceEnvironmentUnsafe, reason)
                failLocked(error)
                throw error
            }
            phase = .emulating
            emulationStartedAt = clock()
            return true
        }
    }

    /// Ends the session with `error` unless it has already ended.
    func fail(_ error: ContactlessPaymentSessionError) {
        lock.withLock { failLocked(error) }
    }

    /// Ends the session when its time is up: 60 s of emulation, or an authentication too old for a transaction
    /// that has not started.
    func checkDeadlines() {
        lock.withLock { _ = checkDeadlinesLocked() }
    }

    // MARK: - The field's side

    /// One command from the reader.
    func respond(to command: CommandAPDU) -> ResponseAPDU {
        lock.withLock { respondLocked(to: command) }
    }

    /// The reader powered the card down or reset it, or the card left the field.
    func reset() {
        lock.withLock {
            card.reset()
            defer {
                connected = false
                directoryRead = false
                selectedAID = nil
                pdolData = []
            }
            guard connected, phase == .emulating else { return }
            if selectedAID != nil {
                posAnnounced = false
                events.yield(.posDisconnected)
            } else if directoryRead {
                failLocked(
                    ContactlessPaymentSessionError(
                        .posNotSupported, "the reader read the card's directory and selected none of its applications"))
            }
        }
    }

    /// The link to the reader broke: a transaction in progress ends with `transmissionError`.
    func transportFailed(_ reason: String) {
        lock.withLock {
            guard phase == .emulating, selectedAID != nil else { return }
            failLocked(ContactlessPaymentSessionError(.transmissionError, reason))
        }
    }

    // MARK: - Locked

    private func respondLocked(to command: CommandAPDU) -> ResponseAPDU {
        guard checkDeadlinesLocked() else { return ResponseAPDU(statusWord: CardStatus.wrongState) }
        if !connected {
            connected = true
            announceReaderLocked()
        }
        switch phase {
        case .awaitingAuthentication, .authenticated:
            // No card is presented yet (field-detect): the reader finds no application and polls again.
            return ResponseAPDU(statusWord: CardStatus.fileNotFound)
        case .failed:
            return ResponseAPDU(statusWord: CardStatus.wrongState)
        case .completed:
            // The reader may finish reading this transaction's records; it cannot start another.
            guard command.instruction == .readRecord || command.instruction == .getData else {
                return ResponseAPDU(statusWord: CardStatus.wrongState)
            }
            return card.respond(to: command)
        case .emulating:
            return emulate(command)
        }
    }

    private func emulate(_ command: CommandAPDU) -> ResponseAPDU {
        let isSelect = command.instruction == .select
        if isSelect, selectedAID == nil, let authenticatedAt,
            clock().timeIntervalSince(authenticatedAt) > limits.authenticationValidity
        {
            failLocked(ContactlessPaymentSessionError(.authenticationExpired, "the authentication is no longer valid"))
            return ResponseAPDU(statusWord: CardStatus.wrongState)
        }
        if let type = requestedTransactionType(command), Self.unsupportedTransactionTypes.contains(type) {
            failLocked(
                ContactlessPaymentSessionError(
                    .cardNotSupported, "the token does not do transaction type \([type].hexString) (cash)"))
            return ResponseAPDU(statusWord: CardStatus.wrongState)
        }
        let before = card.lastATC
        let response = card.respond(to: command)
        switch command.instruction {
        case .select:
            if command.data == CommandAPDU.proximityPaymentSystemEnvironment {
                directoryRead = true
            } else if response.statusWord == .success, command.data != CommandAPDU.paymentSystemEnvironment {
                selectedAID = command.data
            }
        case .getProcessingOptions:
            guard response.statusWord == .success else { return refused(command, response) }
            // GPO data is `83 L data`; the card accepted it, so the template parses.
            pdolData = command.data.count >= 2 ? Array(command.data.dropFirst(2)) : []
            if let atc = card.lastATC, atc != before { complete(values: pdolValues(), atc: atc) }
        case .generateAC, .computeCryptographicChecksum:
            guard response.statusWord == .success else { return refused(command, response) }
            if let atc = card.lastATC, atc != before {
                var values = pdolValues()
                values.merge(Self.values(of: cdol1, in: command.data)) { _, new in new }
                complete(values: values, atc: atc)
            }
        default:
            break
        }
        return response
    }

    /// Cash (01), cash-back (09) and cash disbursement (17): a wallet token pays for goods and services only.
    static let unsupportedTransactionTypes: Set<UInt8> = [0x01, 0x09, 0x17]

    /// The transaction type (9C) a GET PROCESSING OPTIONS (in the PDOL data) or GENERATE AC (in the CDOL1 data)
    /// carries; nil when the list does not ask for it or the command is another.
    private func requestedTransactionType(_ command: CommandAPDU) -> UInt8? {
        switch command.instruction {
        case .getProcessingOptions:
            guard command.data.count >= 2 else { return nil }
            return Self.values(of: pdol, in: Array(command.data.dropFirst(2)))[.transactionType]?.first
        case .generateAC:
            return Self.values(of: cdol1, in: command.data)[.transactionType]?.first
        default:
            return nil
        }
    }

    /// The card refused a transaction command: no key left, or anything else.
    private func refused(_ command: CommandAPDU, _ response: ResponseAPDU) -> ResponseAPDU {
        if response.statusWord == CardStatus.noPaymentKeys {
            failLocked(ContactlessPaymentSessionError(.noPaymentKeys, "the card has no usable payment key"))
        } else {
            failLocked(
                ContactlessPaymentSessionError(
                    .apduFailure,
                    "the card answered \(command.instruction) with \(response.statusWord)"))
        }
        return response
    }

    private func complete(values: [Tag: [UInt8]], atc: UInt16) {
        let context = TransactionContext(
            aid: selectedAID ?? [], values: values, scheme: card.scheme, atc: atc, digitalCardID: digitalCardID)
        phase = .completed
        outcome = .success(context)
        events.yield(.transactionCompleted(context))
        ended.yield(())
    }

    private func pdolValues() -> [Tag: [UInt8]] { Self.values(of: pdol, in: pdolData) }

    private static func values(of list: DataObjectList?, in data: [UInt8]) -> [Tag: [UInt8]] {
        var values: [Tag: [UInt8]] = [:]
        for (tag, value) in list?.values(in: data) ?? [] { values[tag] = Array(value) }
        return values
    }

    /// False when the session has ended (now or before).
    private func checkDeadlinesLocked() -> Bool {
        let now = clock()
        switch phase {
        case .failed: return false
        case .completed, .awaitingAuthentication: return true
        case .authenticated, .emulating: break
        }
        if phase == .emulating, let start = emulationStartedAt,
            now.timeIntervalSince(start) >= limits.maximumSessionDuration
        {
            failLocked(
                ContactlessPaymentSessionError(
                    .maxSessionDurationReached,
                    "emulation lasted \(Int(limits.maximumSessionDuration)) s without a completed transaction"))
            return false
        }
        if selectedAID == nil, let authenticatedAt,
            now.timeIntervalSince(authenticatedAt) > limits.authenticationValidity
        {
            failLocked(ContactlessPaymentSessionError(.authenticationExpired, "the authentication is no longer valid"))
            return false
        }
        return true
    }

    /// Reports a reader's arrival with `posConnected`, by the rules on ``ContactlessPaymentSession/Event/posConnected``:
    /// only after `authenticationCompleted` and before the transaction ends, and once until a `posDisconnected` asks
    /// for another tap. So while the emulation sheet is up, a reader seen again — re-polling after the field-detect
    /// `posConnected`, or back in the field without a transaction cut short — is not reported.
    private func announceReaderLocked() {
        guard phase == .authenticated || phase == .emulating, !posAnnounced else { return }
        posAnnounced = true
        events.yield(.posConnected)
    }

    private func failLocked(_ error: ContactlessPaymentSessionError) {
        guard phase != .completed, phase != .failed else { return }
        phase = .failed
        card.clearCardholderVerification()
        outcome = .failure(error)
        events.yield(.errorEncountered(error))
        ended.yield(())
    }
}
