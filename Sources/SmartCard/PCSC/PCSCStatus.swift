/// A PC/SC return code (`LONG` in winscard.h), e.g. `SCARD_E_NO_SERVICE`, normalised to its 32-bit value.
///
/// pcsc-lite on 64-bit Linux returns `long` (64 bits) holding the unsigned 32-bit constant, macOS an `int32_t`: both
/// keep the low 32 bits, which is what this type stores.
public struct PCSCStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 32-bit code, e.g. `0x8010001D`.
    public let rawValue: UInt32

    /// Wraps a code.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Keeps the low 32 bits of a platform `LONG`.
    public init(_ value: some BinaryInteger) { self.rawValue = UInt32(truncatingIfNeeded: value) }

    /// SCARD_S_SUCCESS.
    public static let success = PCSCStatus(rawValue: 0)
    /// SCARD_E_CANCELLED: an SCardCancel ended the wait.
    public static let cancelled = PCSCStatus(rawValue: 0x8010_0002)
    /// SCARD_E_INVALID_HANDLE.
    public static let invalidHandle = PCSCStatus(rawValue: 0x8010_0003)
    /// SCARD_E_INVALID_PARAMETER.
    public static let invalidParameter = PCSCStatus(rawValue: 0x8010_0004)
    /// SCARD_E_INSUFFICIENT_BUFFER: the receive buffer was too small.
    public static let insufficientBuffer = PCSCStatus(rawValue: 0x8010_0008)
    /// SCARD_E_UNKNOWN_READER.
    public static let unknownReader = PCSCStatus(rawValue: 0x8010_0009)
    /// SCARD_E_TIMEOUT.
    public static let timeout = PCSCStatus(rawValue: 0x8010_000A)
    /// SCARD_E_SHARING_VIOLATION: another application holds the card exclusively.
    public static let sharingViolation = PCSCStatus(rawValue: 0x8010_000B)
    /// SCARD_E_NO_SMARTCARD: no card in the reader.
    public static let noSmartCard = PCSCStatus(rawValue: 0x8010_000C)
    /// SCARD_E_PROTO_MISMATCH: the card speaks none of the protocols asked for.
    public static let protocolMismatch = PCSCStatus(rawValue: 0x8010_000F)
    /// SCARD_E_NOT_READY.
    public static let notReady = PCSCStatus(rawValue: 0x8010_0010)
    /// SCARD_E_READER_UNAVAILABLE: the reader went away.
    public static let readerUnavailable = PCSCStatus(rawValue: 0x8010_0017)
    /// SCARD_E_NO_SERVICE: the resource manager (pcscd) is not running.
    public static let noService = PCSCStatus(rawValue: 0x8010_001D)
    /// SCARD_E_SERVICE_STOPPED: pcscd shut down.
    public static let serviceStopped = PCSCStatus(rawValue: 0x8010_001E)
    /// SCARD_E_NO_READERS_AVAILABLE.
    public static let noReadersAvailable = PCSCStatus(rawValue: 0x8010_002E)
    /// SCARD_E_COMM_DATA_LOST: a communication error with the card.
    public static let communicationDataLost = PCSCStatus(rawValue: 0x8010_002F)
    /// SCARD_F_COMM_ERROR: an internal communication error (pcscd's socket).
    public static let communicationError = PCSCStatus(rawValue: 0x8010_0013)
    /// SCARD_W_UNRESPONSIVE_CARD: the card does not answer a reset.
    public static let unresponsiveCard = PCSCStatus(rawValue: 0x8010_0066)
    /// SCARD_W_UNPOWERED_CARD.
    public static let unpoweredCard = PCSCStatus(rawValue: 0x8010_0067)
    /// SCARD_W_RESET_CARD: the card was reset by another application.
    public static let resetCard = PCSCStatus(rawValue: 0x8010_0068)
    /// SCARD_W_REMOVED_CARD: the card left the reader.
    public static let removedCard = PCSCStatus(rawValue: 0x8010_0069)
    /// `SCARD_E_NOT_TRANSACTED`: the reader could not exchange the APDU (vpcd: the virtual card's connection dropped).
    public static let notTransacted = PCSCStatus(rawValue: 0x8010_0016)

    private static let names: [UInt32: String] = [
        0: "SCARD_S_SUCCESS", 0x8010_0002: "SCARD_E_CANCELLED", 0x8010_0003: "SCARD_E_INVALID_HANDLE",
        0x8010_0004: "SCARD_E_INVALID_PARAMETER", 0x8010_0008: "SCARD_E_INSUFFICIENT_BUFFER",
        0x8010_0009: "SCARD_E_UNKNOWN_READER", 0x8010_000A: "SCARD_E_TIMEOUT",
        0x8010_000B: "SCARD_E_SHARING_VIOLATION", 0x8010_000C: "SCARD_E_NO_SMARTCARD",
        0x8010_000F: "SCARD_E_PROTO_MISMATCH", 0x8010_0010: "SCARD_E_NOT_READY", 0x8010_0016: "SCARD_E_NOT_TRANSACTED",
        0x8010_0013: "SCARD_F_COMM_ERROR", 0x8010_0017: "SCARD_E_READER_UNAVAILABLE",
        0x8010_001D: "SCARD_E_NO_SERVICE", 0x8010_001E: "SCARD_E_SERVICE_STOPPED",
        0x8010_002E: "SCARD_E_NO_READERS_AVAILABLE", 0x8010_002F: "SCARD_E_COMM_DATA_LOST",
        0x8010_0066: "SCARD_W_UNRESPONSIVE_CARD", 0x8010_0067: "SCARD_W_UNPOWERED_CARD",
        0x8010_0068: "SCARD_W_RESET_CARD", 0x8010_0069: "SCARD_W_REMOVED_CARD",
    ]

    /// The winscard.h name when known, and the code: `SCARD_E_NO_SERVICE (0x8010001D)`.
    public var description: String {
        let hex = String(rawValue, radix: 16, uppercase: true)
        let code = "0x" + String(repeating: "0", count: max(0, 8 - hex.count)) + hex
        return Self.names[rawValue].map { "\($0) (\(code))" } ?? code
    }
}
