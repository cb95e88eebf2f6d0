/// The PC/SC calls the reader uses, as a table of closures: the system's libpcsclite (``system()``, loaded at run
/// time) or a fake that tests script.
///
/// Each closure mirrors one winscard.h function with Swift types: handles as `Int`, return codes as ``PCSCStatus``,
/// buffers as byte arrays. The C marshalling lives only in ``system()``, so everything above it — error mapping,
/// reader waiting, EMV's T=0 transport rules — runs in tests without pcscd.
public struct PCSCFunctions: Sendable {
    /// `SCardEstablishContext(scope, nil, nil, &context)`.
    public var establishContext: @Sendable (_ scope: UInt32) -> (PCSCStatus, context: Int)
    /// `SCardReleaseContext(context)`.
    public var releaseContext: @Sendable (_ context: Int) -> PCSCStatus
    /// `SCardListReaders(context, nil, buffer, &length)`: the reader names as a multi-string (each name
    /// NUL-terminated, an empty name last).
    public var listReaders: @Sendable (_ context: Int) -> (PCSCStatus, multiString: [UInt8])
    /// `SCardGetStatusChange(context, timeout, states, count)`: blocks until a reader's state differs from its
    /// ``PCSCReaderState/currentState`` or the timeout (milliseconds; `0xFFFFFFFF` waits forever) passes, and fills
    /// in each ``PCSCReaderState/eventState`` and ATR.
    public var getStatusChange:
        @Sendable (_ context: Int, _ timeoutMilliseconds: UInt32, _ states: inout [PCSCReaderState]) -> PCSCStatus
    /// `SCardConnect(context, reader, shareMode, preferredProtocols, &card, &activeProtocol)`.
    public var connect:
        @Sendable (_ context: Int, _ reader: String, _ shareMode: UInt32, _ preferredProtocols: PCSCProtocol) -> (
            PCSCStatus, card: Int, activeProtocol: PCSCProtocol
        )
    /// `SCardDisconnect(card, disposition)`.
    public var disconnect: @Sendable (_ card: Int, _ disposition: UInt32) -> PCSCStatus
    /// `SCardTransmit(card, pci for protocol, command, nil, response, &length)`: the response bytes as the reader
    /// returned them (status word included).
    public var transmit:
        @Sendable (_ card: Int, _ protocol: PCSCProtocol, _ command: [UInt8]) -> (PCSCStatus, response: [UInt8])
    /// `SCardStatus(card, …)`: the card's state, protocol and ATR.
    public var status:
        @Sendable (_ card: Int) -> (PCSCStatus, state: UInt32, activeProtocol: PCSCProtocol, atr: [UInt8])
    /// `SCardCancel(context)`: ends a blocking `SCardGetStatusChange` from another thread.
    public var cancel: @Sendable (_ context: Int) -> PCSCStatus

    /// Creates a table from closures (tests pass fakes).
    public init(
        establishContext: @escaping @Sendable (UInt32) -> (PCSCStatus, context: Int),
        releaseContext: @escaping @Sendable (Int) -> PCSCStatus,
        listReaders: @escaping @Sendable (Int) -> (PCSCStatus, multiString: [UInt8]),
        getStatusChange: @escaping @Sendable (Int, UInt32, inout [PCSCReaderState]) -> PCSCStatus,
        connect:
            @escaping @Sendable (Int, String, UInt32, PCSCProtocol) -> (
                PCSCStatus, card: Int, activeProtocol: PCSCProtocol
            ),
        disconnect: @escaping @Sendable (Int, UInt32) -> PCSCStatus,
        transmit: @escaping @Sendable (Int, PCSCProtocol, [UInt8]) -> (PCSCStatus, response: [UInt8]),
        status: @escaping @Sendable (Int) -> (PCSCStatus, state: UInt32, activeProtocol: PCSCProtocol, atr: [UInt8]),
        cancel: @escaping @Sendable (Int) -> PCSCStatus
    ) {
        self.establishContext = establishContext
        self.releaseContext = releaseContext
        self.listReaders = listReaders
        self.getStatusChange = getStatusChange
        self.connect = connect
        self.disconnect = disconnect
        self.transmit = transmit
        self.status = status
        self.cancel = cancel
    }
}

extension PCSCFunctions {
    /// SCARD_SCOPE_SYSTEM.
    static let scopeSystem: UInt32 = 2
    /// SCARD_SHARE_SHARED: other applications (a second `tap`, `pcsc_scan`) may connect too.
    static let shareShared: UInt32 = 2
    /// SCARD_LEAVE_CARD.
    static let leaveCard: UInt32 = 0
    /// SCARD_RESET_CARD.
    static let resetCard: UInt32 = 1
    /// INFINITE.
    static let infinite: UInt32 = 0xFFFF_FFFF

    /// Splits a PC/SC multi-string (`"a\0b\0\0"`) into its names; tolerates a missing final NUL.
    static func names(fromMultiString bytes: [UInt8]) -> [String] {
        bytes.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
    }
}
