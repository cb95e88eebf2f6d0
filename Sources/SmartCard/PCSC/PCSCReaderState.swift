import EMV

/// One reader as `SCardGetStatusChange` reports it: its name, the state flags, the event counter and the card's ATR.
public struct PCSCReaderState: Hashable, Sendable, CustomStringConvertible {
    /// The `SCARD_STATE_*` flags; pcsc-lite keeps an event counter in the upper 16 bits.
    public struct Flags: OptionSet, Hashable, Sendable {
        /// The raw `dwEventState` / `dwCurrentState` value, counter included.
        public let rawValue: UInt32

        /// Wraps a state value.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// SCARD_STATE_UNAWARE (0): the caller knows nothing yet; the call returns the current state at once.
        public static let unaware: Flags = []
        /// SCARD_STATE_IGNORE.
        public static let ignore = Flags(rawValue: 0x0001)
        /// SCARD_STATE_CHANGED: differs from the state the caller passed in.
        public static let changed = Flags(rawValue: 0x0002)
        /// SCARD_STATE_UNKNOWN: no such reader.
        public static let unknown = Flags(rawValue: 0x0004)
        /// SCARD_STATE_UNAVAILABLE.
        public static let unavailable = Flags(rawValue: 0x0008)
        /// SCARD_STATE_EMPTY: no card.
        public static let empty = Flags(rawValue: 0x0010)
        /// SCARD_STATE_PRESENT: a card is in the reader (or the field).
        public static let present = Flags(rawValue: 0x0020)
        /// SCARD_STATE_ATRMATCH.
        public static let atrMatch = Flags(rawValue: 0x0040)
        /// SCARD_STATE_EXCLUSIVE: another application holds the card exclusively.
        public static let exclusive = Flags(rawValue: 0x0080)
        /// SCARD_STATE_INUSE: another application is connected.
        public static let inUse = Flags(rawValue: 0x0100)
        /// SCARD_STATE_MUTE: the card does not answer (no usable ATR).
        public static let mute = Flags(rawValue: 0x0200)
        /// SCARD_STATE_UNPOWERED.
        public static let unpowered = Flags(rawValue: 0x0400)

        /// pcsc-lite's count of card insertions and removals on this reader (the upper 16 bits).
        public var eventCount: Int { Int(rawValue >> 16) }
    }

    /// The reader's name, as `SCardListReaders` gives it.
    public var readerName: String
    /// The state the caller believes the reader is in (`dwCurrentState`).
    public var currentState: Flags
    /// The state the reader is in (`dwEventState`), filled in by the call.
    public var eventState: Flags
    /// The card's Answer To Reset, empty without a card.
    public var atr: [UInt8]

    /// A reader whose state the caller does not know yet.
    public init(readerName: String, currentState: Flags = .unaware, eventState: Flags = [], atr: [UInt8] = []) {
        self.readerName = readerName
        self.currentState = currentState
        self.eventState = eventState
        self.atr = atr
    }

    /// Whether a card that answered reset is in the reader.
    public var isCardPresent: Bool { eventState.contains(.present) && !eventState.contains(.mute) }

    /// `Reader 0: card present, ATR 3B8080010101` or `Reader 0: no card`.
    public var description: String {
        if isCardPresent { return "\(readerName): card present, ATR \(atr.hexString)" }
        if eventState.contains(.mute) { return "\(readerName): card present but mute" }
        if eventState.contains(.unknown) || eventState.contains(.unavailable) { return "\(readerName): unavailable" }
        return "\(readerName): no card"
    }
}
