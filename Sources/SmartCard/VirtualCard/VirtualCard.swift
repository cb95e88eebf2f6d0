public import EMV

/// A card applet in a vpcd reader slot: the protocol side of a virtual smart card, with no I/O.
///
/// It takes the ``VPCDFrame``s vpcd sends and returns what to send back: the ATR for get ATR, a response APDU for a
/// command, nothing for power changes. Power off and reset return the applet to its power-on state with
/// ``EMV/CardApplet/reset()`` (persistent data such as the ATC survives). A command that does not parse is answered
/// with status word 6700 (wrong length) and reported, never trapped on. ``VirtualCardLink`` drives one over TCP.
///
/// With vpcd nothing but the card is in the slot, so the card also answers what a PC/SC contactless reader answers
/// itself (PC/SC part 3, 3.2.2.1.3, GET DATA `FF CA`): P1 00 the card's UID, P1 01 the historical bytes of its ATR;
/// other P1 6A81, a Le shorter than the data 6CXX.
///
/// ```swift
/// var card = try VirtualCard(applet: applet)
/// let output = card.receive(.getATR)          // output.reply == VirtualCard.defaultAnswerToReset
/// ```
public struct VirtualCard<Applet: CardApplet>: Sendable {
    /// What the card sends back for one frame, and what was wrong with the frame, if anything.
    public struct Output: Hashable, Sendable {
        /// The payload of the frame to send to vpcd (the link adds the length), or nil for no answer.
        public var reply: [UInt8]?
        /// Why the frame was answered with an error status word or ignored; nil when it was served normally.
        public var problem: VPCDError?

        /// Creates an output.
        public init(reply: [UInt8]?, problem: VPCDError? = nil) {
            self.reply = reply
            self.problem = problem
        }
    }

    /// `3B 80 80 01 01`: direct convention, no historical bytes, offering T=0 and T=1 (contact tools such as
    /// emvtool insist on T=0; PC/SC readers may pick either).
    public static var defaultAnswerToReset: [UInt8] { [0x3B, 0x80, 0x80, 0x01, 0x01] }

    /// The applet, with its state as it is now.
    public var applet: Applet
    /// The answer to reset the card gives.
    public let answerToReset: [UInt8]
    /// The UID a PC/SC reader reports for the card (`FF CA 00 00`).
    public let uid: [UInt8]
    /// Whether the reader has the card powered; a card starts unpowered, as it is when inserted.
    public private(set) var isPowered = false
    /// Command APDUs answered, malformed ones included.
    public private(set) var commandCount = 0
    /// Times the applet was returned to its power-on state (power off, reset, removal).
    public private(set) var resetCount = 0

    /// Creates a card answering with `answerToReset`, whose UID is `uid` (by default a random single-size UID,
    /// 08 and three random bytes, as ISO/IEC 14443-3 has phones and other cards with random UIDs give).
    ///
    /// - Throws: ``VPCDError/Code/invalidATR`` when the ATR is not 2 to 33 bytes starting with TS 3B or 3F;
    ///   ``VPCDError/Code/invalidUID`` when the UID is not 4, 7 or 10 bytes.
    public init(
        applet: Applet, answerToReset: [UInt8] = defaultAnswerToReset, uid: [UInt8]? = nil
    ) throws(VPCDError) {
        try Self.checkAnswerToReset(answerToReset)
        if let uid, ![4, 7, 10].contains(uid.count) {
            throw VPCDError(code: .invalidUID, message: "a UID is 4, 7 or 10 bytes, not \(uid.count)")
        }
        self.applet = applet
        self.answerToReset = answerToReset
        var generator = SystemRandomNumberGenerator()
        self.uid = uid ?? [0x08] + (0..<3).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// Checks that `answerToReset` can be an ATR: 2 to 33 bytes, starting with TS 3B (direct convention) or 3F
    /// (inverse). The rest is the reader's to interpret; pcscd reads the protocols it offers from it.
    ///
    /// - Throws: ``VPCDError/Code/invalidATR``.
    public static func checkAnswerToReset(_ answerToReset: [UInt8]) throws(VPCDError) {
        guard (2...33).contains(answerToReset.count), answerToReset[0] == 0x3B || answerToReset[0] == 0x3F else {
            throw VPCDError(
                code: .invalidATR,
                message: "an ATR is 2 to 33 bytes starting with 3B or 3F, not \(answerToReset.count) bytes"
                    + (answerToReset.first.map { " starting with \([$0].hexString)" } ?? ""))
        }
    }

    /// Handles one frame from vpcd.
    public mutating func receive(_ frame: VPCDFrame) -> Output {
        switch frame {
        case .powerOff:
            isPowered = false
            resetApplet()
            return Output(reply: nil)
        case .powerOn:
            // A card reaches power-on state from any other: unpowered (already reset) or powered (cold reset).
            if isPowered { resetApplet() }
            isPowered = true
            return Output(reply: nil)
        case .reset:
            isPowered = true
            resetApplet()
            return Output(reply: nil)
        case .getATR:
            return Output(reply: answerToReset)
        case .command(let bytes):
            return answer(bytes)
        }
    }

    /// The card left the reader (the connection to vpcd ended): the applet loses power.
    public mutating func remove() {
        isPowered = false
        resetApplet()
    }

    /// PC/SC part 3's GET DATA, which the reader answers for the card: the UID or the ATR's historical bytes.
    private func readerGetData(_ command: CommandAPDU) -> ResponseAPDU {
        guard command.p2 == 0x00 else { return ResponseAPDU(statusWord: .incorrectP1P2) }
        let data: [UInt8]
        switch command.p1 {
        case 0x00: data = uid
        case 0x01: data = AnswerToReset.historicalBytes(of: answerToReset)
        default: return ResponseAPDU(statusWord: .functionNotSupported)
        }
        // No Le or Le 00 asks for all of it; a shorter Le is told the length (6CXX).
        if command.ne > 0, command.ne < data.count {
            return ResponseAPDU(statusWord: StatusWord(0x6C00 | UInt16(data.count)))
        }
        return ResponseAPDU(data: data, statusWord: .success)
    }

    private mutating func resetApplet() {
        applet.reset()
        resetCount += 1
    }

    private mutating func answer(_ bytes: [UInt8]) -> Output {
        commandCount += 1
        let command: CommandAPDU
        do {
            command = try CommandAPDU(bytes: bytes)
        } catch {
            let reason = (error as? APDUError).map { "\($0.code)" } ?? "unparsable"
            return Output(
                reply: ResponseAPDU(statusWord: .wrongLength).bytes,
                problem: VPCDError(
                    code: .malformedCommand,
                    message: "a command of \(bytes.count) bytes is not an APDU (\(reason)); answered 6700"))
        }
        if command.cla == 0xFF, command.ins == 0xCA { return Output(reply: readerGetData(command).bytes) }
        let response = applet.respond(to: command).bytes
        guard response.count <= VPCDFrame.maximumPayloadLength else {
            return Output(
                reply: ResponseAPDU(statusWord: .noPreciseDiagnosis).bytes,
                problem: VPCDError(
                    code: .responseTooLong,
                    message: "a response of \(response.count) bytes does not fit a frame; answered 6F00"))
        }
        return Output(reply: response)
    }
}
