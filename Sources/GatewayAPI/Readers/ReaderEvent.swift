public import Foundation

/// What happened at a server-driven reader, as `GET /v1/readers/{readerId}/events` streams it (Server-Sent Events,
/// `id:` the ``sequence``): the reader's own events while it reads a card (ProximityReader's names) and the
/// gateway's (connected, authorizing, the command's end).
public struct ReaderEvent: Sendable, Hashable, Codable {
    /// The kinds of event.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The gateway is configuring the device for the first time (its prepare); ``ReaderEvent/progress`` says how
        /// far, 100 when done (absent when it failed).
        case configuring
        /// The reader asked the gateway for work after being away.
        case readerConnected
        /// The reader stopped asking for work within its timeout; a command it ran failed.
        case readerDisconnected
        /// The reader picked up the command.
        case commandStarted
        /// The reader waits for a card: the customer may tap now.
        case readyForTap
        /// A card entered the field.
        case cardDetected
        /// The card may leave the field.
        case removeCard
        /// The tap failed midway; the reader waits for the card again.
        case readRetry
        /// The reader shows its PIN pad.
        case pinEntryRequested
        /// The PIN was entered (or entry ended).
        case pinEntryCompleted
        /// The reader read the card.
        case readCompleted
        /// The read ended without card data.
        case readNotCompleted
        /// The gateway is authorizing the read at the issuer.
        case authorizing
        /// The command ended: ``ReaderEvent/command`` has its status and result.
        case commandEnded
    }

    /// The reader's events are numbered from 1, in order; a client reconnects with `Last-Event-ID`.
    public var sequence: Int
    /// The reader.
    public var readerId: String
    /// What happened.
    public var type: Kind
    /// When the gateway recorded it.
    public var at: Date
    /// The command it belongs to, as it is now (with its result on ``Kind/commandEnded``).
    public var command: ReaderCommand?
    /// For ``Kind/configuring``: how far the configuration is, in percent.
    public var progress: Int?

    /// Creates an event.
    public init(
        sequence: Int, readerId: String, type: Kind, at: Date, command: ReaderCommand? = nil, progress: Int? = nil
    ) {
        self.sequence = sequence
        self.readerId = readerId
        self.type = type
        self.at = at
        self.command = command
        self.progress = progress
    }
}

/// A reader of the merchant and whether it can take a command (`GET /v1/readers`).
public struct ReaderStatus: Sendable, Hashable, Codable {
    /// The reader's device id.
    public var id: String
    /// Whether it asked the gateway for work within its timeout.
    public var online: Bool
    /// The command it runs (pending or in progress), if any.
    public var command: ReaderCommand?
    /// When it last asked for work.
    public var lastSeenAt: Date?
    /// When the device last prepared.
    public var lastPreparedAt: Date?
    /// While the gateway configures the device for the first time: how far, in percent.
    public var configuring: Int?

    /// Creates a status.
    public init(
        id: String, online: Bool, command: ReaderCommand? = nil, lastSeenAt: Date? = nil, lastPreparedAt: Date? = nil,
        configuring: Int? = nil
    ) {
        self.id = id
        self.online = online
        self.command = command
        self.lastSeenAt = lastSeenAt
        self.lastPreparedAt = lastPreparedAt
        self.configuring = configuring
    }
}

/// `GET /v1/readers`.
public struct ReaderList: Sendable, Hashable, Codable {
    /// The merchant's readers, online first.
    public var data: [ReaderStatus]

    /// Creates a list.
    public init(data: [ReaderStatus]) { self.data = data }
}

// MARK: - The reader's side

/// `GET /v1/reader/commands/next` (a reader session): the next thing for the reader to do, or nothing (204) when the
/// wait ended first.
public struct ReaderInstruction: Sendable, Hashable, Codable {
    /// A command to run.
    public var command: ReaderCommand?
    /// The id of the running command to cancel.
    public var cancel: String?

    /// Creates an instruction.
    public init(command: ReaderCommand? = nil, cancel: String? = nil) {
        self.command = command
        self.cancel = cancel
    }
}

/// `POST /v1/reader/commands/{commandId}/events`: an event of the reader's SDK while it runs the command.
public struct ReaderEventReport: Sendable, Hashable, Codable {
    /// One of the reader's own kinds (``ReaderEvent/Kind/readyForTap`` … ``ReaderEvent/Kind/readNotCompleted``).
    public var type: ReaderEvent.Kind

    /// Creates a report.
    public init(type: ReaderEvent.Kind) { self.type = type }
}

/// `POST /v1/reader/commands/{commandId}/read`: the command's read, sealed to the gateway, which authorizes it as the
/// command says and answers with the command as it is then (completed, or in progress awaiting the PIN).
public struct ReaderReadSubmission: Sendable, Hashable, Codable {
    /// The read's sealed card data.
    public var cardData: SealedCardData
    /// The loyalty pass read in the same tap, when the command asked for one.
    public var loyalty: ReaderLoyaltyResult?

    /// Creates a submission.
    public init(cardData: SealedCardData, loyalty: ReaderLoyaltyResult? = nil) {
        self.cardData = cardData
        self.loyalty = loyalty
    }
}

/// `POST /v1/reader/commands/{commandId}/failure`: the reader could not read (or the cardholder canceled).
public typealias ReaderFailureReport = ReaderCommandResult.Failure
