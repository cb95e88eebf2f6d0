public import EMV

/// A card applet in a vpcd reader slot: the protocol side of a virtual smart card, with no I/O.
///
/// It takes the ``VPCDFrame``s vpcd sends and returns what to send back: the ATR for get ATR, a response APDU for a
/// command, nothing for power changes. Power off and reset return the applet to its power-on state with
/// ``EMV/CardApplet/reset()`` (persistent data such as the ATC survives). A command that does not parse is answered
/// with status word 6700 (wrong length) and reported, never trapped on. ``VirtualCardLink`` drives one over TCP.
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
    /// Whether the reader has the card powered; a card starts unpowered, as it is when inserted.
    public private(set) var isPowered = false
    /// Command APDUs answered, malformed ones included.
    public private(set) var commandCount = 0
    /// Times the applet was returned to its power-on state (power off, reset, removal).
    public private(set) var resetCount = 0

    /// Creates a card answering with `answerToReset`.
    ///
    /// - Throws: ``VPCDError/Code/invalidATR`` when the ATR is not 2 to 33 bytes starting with TS 3B or 3F.
    public init(applet: Applet, answerToReset: [UInt8] = defaultAnswerToReset) throws(VPCDError) {
        try Self.checkAnswerToReset(answerToReset)
        self.applet = applet
        self.answerToReset = answerToReset
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
