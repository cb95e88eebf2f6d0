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
