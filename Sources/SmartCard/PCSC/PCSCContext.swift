import Foundation

/// A connection to the PC/SC resource manager (pcscd): lists readers, waits for a card, and connects to it.
///
/// ```swift
/// let pcsc = try PCSCContext()                                    // dlopen libpcsclite, SCardEstablishContext
/// let reader = try pcsc.waitForCard(reader: nil, timeout: .seconds(30))
/// let channel = try pcsc.connect(reader: reader.readerName)       // a CardChannel
/// let result = await kernel.perform(request, over: channel)
/// ```
///
/// The calls block the calling thread (PC/SC is a blocking API); ``cancel()`` ends a wait from another thread.
/// The context is released when the value is.
public final class PCSCContext: Sendable {
    /// The PC/SC functions in use.
    public let functions: PCSCFunctions
    /// The `SCARDCONTEXT`.
    let handle: Int

    /// Establishes a context with the system's PC/SC library.
    ///
    /// - Throws: ``SmartCardError/Code/libraryUnavailable`` (what to install) or
    ///   ``SmartCardError/Code/serviceUnavailable`` (pcscd is not running; how to start it).
    public convenience init() throws(SmartCardError) {
        try self.init(functions: .system())
    }

    /// Establishes a context through `functions` (tests pass a fake).
    public convenience init(functions: PCSCFunctions) throws(SmartCardError) {
        try self.init(functions: functions, removalGrace: .milliseconds(1000))
    }

    /// How long a response shorter than a status word waits for pcscd to report the card gone before it counts
    /// as malformed: pcscd polls card presence every 400 ms.
    let removalGrace: Duration

    init(functions: PCSCFunctions, removalGrace: Duration) throws(SmartCardError) {
        self.functions = functions
        self.removalGrace = removalGrace
        let (status, handle) = functions.establishContext(PCSCFunctions.scopeSystem)
        guard status == .success else { throw SmartCardError(pcsc: status, operation: "SCardEstablishContext") }
        self.handle = handle
    }

    deinit {
        _ = functions.releaseContext(handle)
    }

    /// The names of the readers PC/SC knows, in its order; empty when there are none.
    ///
    /// - Throws: ``SmartCardError/Code/serviceUnavailable`` when pcscd went away.
    public func readerNames() throws(SmartCardError) -> [String] {
        let (status, multiString) = functions.listReaders(handle)
        if status == .noReadersAvailable { return [] }
        guard status == .success else { throw SmartCardError(pcsc: status, operation: "SCardListReaders") }
        return PCSCFunctions.names(fromMultiString: multiString)
    }

    /// Every reader with its state now: whether a card is present, and its ATR.
    public func readers() throws(SmartCardError) -> [PCSCReaderState] {
        let names = try readerNames()
        guard !names.isEmpty else { return [] }
        var states = names.map { PCSCReaderState(readerName: $0) }
        // With every current state UNAWARE the call returns at once with the states as they are.
        let status = functions.getStatusChange(handle, 0, &states)
        guard status == .success || status == .timeout else {
            throw SmartCardError(pcsc: status, operation: "SCardGetStatusChange")
        }
        return states
    }

    /// Waits until a card that answers reset is in `reader` (or in any reader when nil) and returns that reader's
    /// state.
    ///
    /// - Throws: ``SmartCardError/Code/noReaders``, ``SmartCardError/Code/unknownReader`` (the message lists the
    ///   readers there are), ``SmartCardError/Code/timedOut`` when no card came within `timeout`,
    ///   ``SmartCardError/Code/cancelled`` after ``cancel()``.
    public func waitForCard(reader: String?, timeout: Duration) throws(SmartCardError) -> PCSCReaderState {
        let names = try readerNames()
        guard !names.isEmpty else { throw Self.noReadersError() }
        let watched: [String]
        if let reader {
            guard names.contains(reader) else { throw Self.unknownReaderError(reader, readers: names) }
            watched = [reader]
        } else {
            watched = names
        }
        let deadline = ContinuousClock.now + timeout
        var states = watched.map { PCSCReaderState(readerName: $0) }
        var wait: UInt32 = 0
        while true {
            let status = functions.getStatusChange(handle, wait, &states)
            switch status {
            case .success:
                if let ready = states.first(where: \.isCardPresent) { return ready }
            case .timeout:
                break
            case .unknownReader, .readerUnavailable:
                throw Self.unknownReaderError(reader ?? watched.joined(separator: ", "), readers: try readerNames())
            default:
                throw SmartCardError(pcsc: status, operation: "SCardGetStatusChange")
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                let place = reader.map { "in reader \"\($0)\"" } ?? "in any reader (\(watched.joined(separator: ", ")))"
                throw SmartCardError(code: .timedOut, message: "no card \(place) within \(Self.seconds(timeout))")
            }
            for index in states.indices { states[index].currentState = states[index].eventState.subtracting(.changed) }
            wait = Self.milliseconds(left)
        }
    }

    /// Whether the card in `reader` leaves it (or the reader goes away) within `duration`.
    func cardLeaves(_ reader: String, within duration: Duration) -> Bool {
        let deadline = ContinuousClock.now + duration
        var states = [PCSCReaderState(readerName: reader)]
        var wait: UInt32 = 0
        while true {
            let status = functions.getStatusChange(handle, wait, &states)
            guard status == .success || status == .timeout else { return status != .cancelled }
            let state = states[0].eventState
            if !state.contains(.present) || state.contains(.empty) || state.contains(.unknown) { return true }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            states[0].currentState = state.subtracting(.changed)
            wait = Self.milliseconds(left)
        }
    }

    /// Connects to the card in `reader`, shared, with T=0 or T=1 as the card and reader agree.
    ///
    /// - Throws: ``SmartCardError/Code/unknownReader`` (with the list of readers), ``SmartCardError/Code/cardRemoved``
    ///   when no card is there, or another PC/SC failure.
    public func connect(reader: String, protocols: PCSCProtocol = .any) throws(SmartCardError) -> PCSCChannel {
        let (status, card, active) = functions.connect(handle, reader, PCSCFunctions.shareShared, protocols)
        switch status {
        case .success:
            break
        case .unknownReader, .readerUnavailable:
            throw Self.unknownReaderError(reader, readers: (try? readerNames()) ?? [])
        default:
            throw SmartCardError(pcsc: status, operation: "SCardConnect", subject: "reader \"\(reader)\"")
        }
        let (cardStatus, _, statusProtocol, atr) = functions.status(card)
        let negotiated = active.isEmpty && cardStatus == .success ? statusProtocol : active
        return PCSCChannel(context: self, card: card, protocol: negotiated, readerName: reader, atr: atr)
    }

    /// Ends a blocking ``waitForCard(reader:timeout:)`` on another thread with ``SmartCardError/Code/cancelled``.
    public func cancel() {
        _ = functions.cancel(handle)
    }

    static func noReadersError() -> SmartCardError {
        SmartCardError(
            code: .noReaders,
            message: "no PC/SC reader is connected: plug in a reader (or configure a virtual one) and check that "
                + "pcscd sees it")
    }

    static func unknownReaderError(_ name: String, readers: [String]) -> SmartCardError {
        let list =
            readers.isEmpty ? "there are no readers" : "readers: " + readers.map { "\"\($0)\"" }.joined(separator: ", ")
        return SmartCardError(code: .unknownReader, message: "no reader named \"\(name)\"; \(list)")
    }

    /// A timeout for SCardGetStatusChange, rounded up, below INFINITE.
    static func milliseconds(_ duration: Duration) -> UInt32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return UInt32(clamping: max(1, min(total, Int64(PCSCFunctions.infinite - 1))))
    }

    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}
