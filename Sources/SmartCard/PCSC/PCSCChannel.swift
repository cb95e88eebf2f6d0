public import EMV
import Foundation

/// A card connected through PC/SC: a ``CardChannel`` to a card in a USB reader, an NFC reader or vpcd's virtual
/// reader.
///
/// The kernel speaks T=1-style APDUs (case 4 with Le, whole responses). Under T=0 the reader side owns the transport
/// rules of EMV Book 1, 9.3.1 (ISO/IEC 7816-3/-4): a case 4 command goes out without Le, `61XX` is followed by
/// GET RESPONSE with Le XX (repeated while the card has more), `6CXX` re-sends the command with Le XX, and a warning
/// to a case 4 command is followed by GET RESPONSE to fetch the data that came with it. Under T=1 the reader passes
/// APDUs whole, but `61XX`/`6CXX` are still handled since some cards send them there too.
///
/// `transmit` calls `SCardTransmit` on the calling thread: it blocks for the card's answer, which is what a
/// contactless transaction wants (no hop between APDUs).
public final class PCSCChannel: CardChannel {
    /// The reader the card is in.
    public let readerName: String
    /// The protocol negotiated at connection.
    public let activeProtocol: PCSCProtocol
    /// The card's Answer To Reset.
    public let atr: [UInt8]

    private let context: PCSCContext
    private let card: Int
    private let disconnected = LockedFlag()

    /// Most GET RESPONSE and re-send rounds for one command: a card that keeps answering 61XX is broken.
    static let maximumRounds = 32

    init(context: PCSCContext, card: Int, protocol: PCSCProtocol, readerName: String, atr: [UInt8]) {
        self.context = context
        self.card = card
        self.activeProtocol = `protocol`
        self.readerName = readerName
        self.atr = atr
    }

    deinit {
        if disconnected.set() { _ = context.functions.disconnect(card, PCSCFunctions.leaveCard) }
    }

    /// Disconnects, leaving the card powered (`reset` resets it, so the next connection starts a new session).
    public func disconnect(reset: Bool = false) {
        guard disconnected.set() else { return }
        _ = context.functions.disconnect(card, reset ? PCSCFunctions.resetCard : PCSCFunctions.leaveCard)
    }

    /// Sends `command` under the negotiated protocol's transport rules and returns the card's complete answer.
    ///
    /// - Throws: ``SmartCardError/Code/cardRemoved`` when the card left, ``SmartCardError/Code/malformedResponse``
    ///   when the reader returns fewer than two bytes (the message names the command's instruction, e.g.
    ///   `GENERATE AC`), ``SmartCardError/Code/serviceUnavailable`` when pcscd went away, and other PC/SC failures.
    public func transmit(_ command: CommandAPDU) async throws(SmartCardError) -> ResponseAPDU {
        try exchange(command)
    }

    /// The synchronous body of ``transmit(_:)``.
    func exchange(_ command: CommandAPDU) throws(SmartCardError) -> ResponseAPDU {
        guard !disconnected.isSet else {
            throw SmartCardError(code: .transmissionFailed, message: "the channel to \"\(readerName)\" is disconnected")
        }
        let isT0 = activeProtocol == .t0
        if isT0, command.isExtended {
            throw SmartCardError(
                code: .transmissionFailed,
                message: "\(Self.name(command)) needs extended length, which T=0 cannot carry (no ENVELOPE support)")
        }
        // T=0 carries case 4 as case 3: the data goes out, the answer comes back by GET RESPONSE.
        let stripsLe = isT0 && command.apduCase == .four
        var outgoing = stripsLe ? Self.withExpectedLength(command, 0) : command
        var response = try send(outgoing, for: command)
        var rounds = 0
        // 6CXX: wrong Le; the card says how many bytes it has. Re-send once per round with exactly that.
        while let exact = response.statusWord.exactLength, command.data.isEmpty || !isT0 {
            rounds += 1
            guard rounds <= Self.maximumRounds else { throw Self.tooManyRounds(command) }
            outgoing = Self.withExpectedLength(outgoing, exact)
            response = try send(outgoing, for: command)
        }
        var data = response.data
        var statusWord = response.statusWord
        // 61XX: more bytes are waiting; fetch them, as often as the card says so.
        while let available = statusWord.bytesAvailable {
            rounds += 1
            guard rounds <= Self.maximumRounds else { throw Self.tooManyRounds(command) }
            let part = try getResponse(available, for: command, rounds: &rounds)
            data += part.data
            statusWord = part.statusWord
        }
        // EMV Book 1, 9.3.1.3: a case 4 command under T=0 answered with a warning (62XX, 63XX) or an
        // application-specific 9XXX carries its data behind a GET RESPONSE with Le 00; the warning stays the answer.
        if stripsLe, data.isEmpty, Self.isWarning(statusWord) {
            let part = try getResponse(256, for: command, rounds: &rounds)
            if part.statusWord == StatusWord(0x9000) { data = part.data }
        }
        return ResponseAPDU(data: data, statusWord: statusWord)
    }

    /// GET RESPONSE for `length` bytes, re-sent with the card's exact length after a 6CXX.
    private func getResponse(_ length: Int, for command: CommandAPDU, rounds: inout Int) throws(SmartCardError)
        -> ResponseAPDU
    {
        // `length` comes from a status byte, 1...256, which GET RESPONSE always accepts.
        guard var request = try? CommandAPDU.getResponse(expectedLength: length) else {
            throw SmartCardError(code: .malformedResponse, message: "GET RESPONSE cannot ask for \(length) bytes")
        }
        var part = try send(request, for: command)
        while let exact = part.statusWord.exactLength {
            rounds += 1
            guard rounds <= Self.maximumRounds else { throw Self.tooManyRounds(command) }
            request = Self.withExpectedLength(request, exact)
            part = try send(request, for: command)
        }
        return part
    }

    /// One SCardTransmit; `original` names the command in errors (a GET RESPONSE is named after what it fetches).
    private func send(_ apdu: CommandAPDU, for original: CommandAPDU) throws(SmartCardError) -> ResponseAPDU {
        let (status, bytes) = context.functions.transmit(card, activeProtocol, apdu.bytes)
        guard status == .success else {
            // vpcd fails the exchange with SCARD_E_NOT_TRANSACTED when the virtual card's connection is gone (the
            // emulator killed): the reader, asked, reports the card absent, and that is what the kernel must hear.
            if status == .notTransacted, let removed = cardGone(during: apdu, for: original) { throw removed }
            throw SmartCardError(pcsc: status, operation: "SCardTransmit", subject: Self.name(apdu, for: original))
        }
        guard bytes.count >= 2 else {
            // vpcd (and some drivers) answer a card that dropped off mid-command with an empty response and success:
            // ask the reader whether the card is still there before calling the answer malformed.
            if let removed = cardGone(during: apdu, for: original) { throw removed }
            throw SmartCardError(
                code: .malformedResponse,
                message: "the answer to \(Self.name(apdu, for: original)) has \(bytes.count) byte"
                    + "\(bytes.count == 1 ? "" : "s"), fewer than a status word")
        }
        return ResponseAPDU(
            data: Array(bytes[..<(bytes.count - 2)]),
            statusWord: StatusWord(sw1: bytes[bytes.count - 2], sw2: bytes[bytes.count - 1]))
    }

    /// The error to throw when SCardStatus says the card is no longer there (absent, or the handle reports it
    /// removed); nil when it is.
    private func cardGone(during apdu: CommandAPDU, for original: CommandAPDU) -> SmartCardError? {
        let (status, state, _, _) = context.functions.status(card)
        let subject = Self.name(apdu, for: original)
        if status != .success {
            let error = SmartCardError(pcsc: status, operation: "SCardStatus", subject: subject)
            return error.code == .cardRemoved || error.code == .serviceUnavailable ? error : nil
        }
        // SCARD_ABSENT (2) set, or SCARD_PRESENT (4) clear; else pcscd may not have polled the reader yet (it does
        // every 400 ms), so wait a little for the removal to show.
        let absent = state & 0x2 != 0 || state & 0x4 == 0
        guard absent || context.cardLeaves(readerName, within: context.removalGrace) else { return nil }
        return SmartCardError(code: .cardRemoved, message: "the card left the reader during \(subject)")
    }

    /// `GENERATE AC`, or `GET RESPONSE (for GENERATE AC)`: instruction names only, never data.
    static func name(_ apdu: CommandAPDU, for original: CommandAPDU? = nil) -> String {
        let own = apdu.instruction.description
        guard let original, original.ins != apdu.ins else { return own }
        return "\(own) (for \(original.instruction.description))"
    }

    private static func tooManyRounds(_ command: CommandAPDU) -> SmartCardError {
        SmartCardError(
            code: .malformedResponse,
            message: "the card kept answering 61XX/6CXX to \(name(command)) beyond \(maximumRounds) rounds")
    }

    private static func isWarning(_ statusWord: StatusWord) -> Bool {
        statusWord.isWarning || (statusWord.sw1 & 0xF0 == 0x90 && statusWord != StatusWord(0x9000))
    }

    /// The same command with another Le (0: none). Lengths come from a status byte (1...256), so they always fit.
    static func withExpectedLength(_ command: CommandAPDU, _ ne: Int) -> CommandAPDU {
        (try? CommandAPDU(
            cla: command.cla, ins: command.ins, p1: command.p1, p2: command.p2, data: command.data, ne: ne))
            ?? command
    }
}

/// A flag set once, from any thread.
final class LockedFlag: @unchecked Sendable {
    // Sendable by hand: every access holds the lock.
    private let lock = NSLock()
    private var value = false

    /// Whether the flag is set.
    var isSet: Bool { lock.withLock { value } }

    /// Sets the flag; true when this call set it (it was clear).
    func set() -> Bool {
        lock.withLock {
            defer { value = true }
            return !value
        }
    }
}
