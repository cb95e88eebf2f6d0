import EMV
import SmartCard
import Testing

@Suite("VirtualCard")
struct VirtualCardTests {
    @Test("get ATR answers the default ATR, or the one given")
    func answerToReset() throws {
        var card = try VirtualCard(applet: CounterApplet())
        #expect(card.receive(.getATR).reply == [0x3B, 0x80, 0x80, 0x01, 0x01])
        var t0 = try VirtualCard(applet: CounterApplet(), answerToReset: [0x3B, 0x60, 0x00, 0x00])
        #expect(t0.receive(.getATR).reply == [0x3B, 0x60, 0x00, 0x00])
    }

    @Test(
        "an ATR that is not 2 to 33 bytes starting with 3B or 3F is refused",
        arguments: [[], [0x3B], [0x00, 0x80], [UInt8](repeating: 0x3B, count: 34)] as [[UInt8]])
    func invalidAnswerToReset(atr: [UInt8]) {
        #expect(throws: VPCDError.invalidATR) { try VirtualCard(applet: CounterApplet(), answerToReset: atr) }
    }

    /// PC/SC part 3's contactless ATR of an ISO 14443-4 card: 3B 8F 80 01, historical bytes, TCK.
    static let contactlessATR: [UInt8] = [
        0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03, 0x00, 0x03, 0x00, 0x00, 0x00,
        0x00, 0x68,
    ]

    @Test(
        "PC/SC GET DATA (FF CA) as a reader answers it: the UID, the ATR's historical bytes; the applet never sees it")
    func readerGetData() throws {
        var card = try VirtualCard(
            applet: CounterApplet(), answerToReset: Self.contactlessATR,
            uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6])
        _ = card.receive(.powerOn)
        let uid = try CommandAPDU(cla: 0xFF, ins: 0xCA, p1: 0x00, p2: 0x00, ne: 256)
        #expect(card.receive(.command(uid.bytes)).reply == [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6, 0x90, 0x00])
        let historical = try CommandAPDU(cla: 0xFF, ins: 0xCA, p1: 0x01, p2: 0x00, ne: 256)
        #expect(card.receive(.command(historical.bytes)).reply == Array(Self.contactlessATR[4..<19]) + [0x90, 0x00])
        let short = try CommandAPDU(cla: 0xFF, ins: 0xCA, p1: 0x00, p2: 0x00, ne: 4)
        #expect(card.receive(.command(short.bytes)).reply == [0x6C, 0x07])
        let other = try CommandAPDU(cla: 0xFF, ins: 0xCA, p1: 0x02, p2: 0x00, ne: 256)
        #expect(card.receive(.command(other.bytes)).reply == [0x6A, 0x81])
        #expect(card.applet.counter == 0 && card.commandCount == 4)

        // By default a random single-size UID (08 …) per card; the default ATR has no historical bytes.
        var first = try VirtualCard(applet: CounterApplet())
        let second = try VirtualCard(applet: CounterApplet())
        #expect(first.uid.count == 4 && first.uid[0] == 0x08)
        #expect(first.uid != second.uid || first.uid == second.uid && second.uid.count == 4)
        #expect(first.receive(.command(historical.bytes)).reply == [0x90, 0x00])
        #expect(throws: VPCDError.invalidUID) { try VirtualCard(applet: CounterApplet(), uid: [1, 2, 3]) }
    }

    @Test(
        "historical bytes follow every interface byte the ATR announces",
        arguments: [
            ([0x3B, 0x80, 0x80, 0x01, 0x01], []),
            ([0x3B, 0x02, 0x14, 0x50], [0x14, 0x50]),
            ([0x3B, 0x95, 0x13, 0x81, 0x01, 0x80, 0x73, 0xFF, 0x01, 0x00, 0x0B], [0x80, 0x73, 0xFF, 0x01, 0x00]),
            ([0x3B, 0x8F, 0x80], []),
        ] as [([UInt8], [UInt8])])
    func historicalBytes(atr: [UInt8], expected: [UInt8]) {
        #expect(AnswerToReset.historicalBytes(of: atr) == expected)
    }

    @Test("power changes answer nothing; power off and reset return the applet to idle, the counter persists")
    func powerAndReset() throws {
        var card = try VirtualCard(applet: CounterApplet())
        #expect(card.receive(.powerOn).reply == nil)
        #expect(card.isPowered)
        #expect(card.receive(.command(CommandAPDU.selectAny.bytes)).reply == [0x90, 0x00])
        #expect(card.receive(.command(CommandAPDU.count.bytes)).reply == [0x00, 0x01, 0x90, 0x00])
        #expect(card.receive(.reset).reply == nil)
        #expect(card.applet.selected == false)
        #expect(card.receive(.command(CommandAPDU.count.bytes)).reply == [0x00, 0x02, 0x90, 0x00])
        #expect(card.receive(.powerOff).reply == nil)
        #expect(!card.isPowered)
        card.remove()
        #expect(card.applet.counter == 2)
        #expect(card.applet.resets == 3)
        #expect(card.commandCount == 3)
    }

    @Test(
        "a command that does not parse is answered 6700 and never reaches the applet",
        arguments: [
            [0x00, 0xA4], [0x00, 0xA4, 0x04], [0x00, 0xA4, 0x04, 0x00, 0x05, 0xA0],
            [0x00, 0xA4, 0x04, 0x00, 0x00, 0x01],
        ]
            as [[UInt8]])
    func malformedCommand(bytes: [UInt8]) throws {
        var card = try VirtualCard(applet: CounterApplet())
        let output = card.receive(.command(bytes))
        #expect(output.reply == [0x67, 0x00])
        #expect(output.problem == VPCDError.malformedCommand)
        #expect(card.applet.received.isEmpty)
        #expect(card.commandCount == 1)
    }

    @Test("a response longer than a frame can carry is answered 6F00")
    func oversizeResponse() throws {
        var card = try VirtualCard(applet: CounterApplet())
        // 65,534 bytes plus the status word: 65,536, one more than a frame's length field holds.
        let output = card.receive(.command(CommandAPDU.zeros(65_534).bytes))
        #expect(output.reply == [0x6F, 0x00])
        #expect(output.problem == VPCDError.responseTooLong)
        let fits = card.receive(.command(CommandAPDU.zeros(65_533).bytes))
        #expect(fits.reply?.count == 65_535)
        #expect(fits.problem == nil)
    }
}
