import EMV
import SmartCard
import Testing

@Suite("ReplayChannel")
struct ReplayChannelTests {
    /// A made-up Visa-like exchange: PPSE, SELECT, GPO with 33 bytes of PDOL data, two records, a GET DATA, and a
    /// GENERATE AC with 29 bytes of CDOL data.
    static let text = """
        # header

        00A404000E325041592E5359532E444446303100 : 6F009000
        00A4040007A000000003101000 : 6F019000
        80A80000238321270000000000000010000000000000000978000000000009782503010038393031 00 : 77029000
        00B2010C00 : 70039000
        00B2021400 : 70049000
        80CA9F1700 : 9F1701039000
        80AE80001D0000000010000000000000000978000000000009782503010038393031 00 : 77059000
        """

    static let trace = try! APDUTrace(text: text)

    static func command(_ hex: String) -> CommandAPDU {
        try! CommandAPDU(bytes: [UInt8](hex: hex.filter { $0 != " " })!)
    }

    static let ppse = command("00A404000E325041592E5359532E444446303100")
    static let selectVisa = command("00A4040007A000000003101000")
    /// Same length as the recorded GPO, other amount, date and unpredictable number.
    static let gpo = command("80A80000238321270000000000000099990000000000000978000000000009782611210012345678 00")
    static let record1 = command("00B2010C00")
    static let record2 = command("00B2021400")
    static let getData = command("80CA9F1700")
    static let generateAC = command("80AE80001D" + String(repeating: "11", count: 29) + "00")

    @Test("A kernel sending the same commands gets the recorded responses, in order")
    func sequential() async throws {
        let channel = ReplayChannel(trace: Self.trace)
        let commands = [
            Self.ppse, Self.selectVisa, Self.gpo, Self.record1, Self.record2, Self.getData, Self.generateAC,
        ]
        var responses: [ResponseAPDU] = []
        for command in commands { responses.append(try await channel.transmit(command)) }
        #expect(responses == Self.trace.exchanges.map(\.response))
        #expect(await channel.isFinished)
        #expect(await channel.remainingExchanges == 0)
        await #expect(throws: SmartCardError.traceExhausted) { try await channel.transmit(Self.ppse) }
    }

    @Test("Replaying a trace's own commands reproduces its responses, in either matching mode")
    func ownCommands() async throws {
        for options in [ReplayChannel.Options.default, .strict] {
            let channel = ReplayChannel(trace: Self.trace, options: options)
            for exchange in Self.trace.exchanges {
                #expect(try await channel.transmit(exchange.command) == exchange.response)
            }
        }
    }

    @Test("Terminal-dynamic commands match by header and data length")
    func dynamicDataLength() {
        let recorded = Self.trace.exchanges[2].command
        #expect(ReplayChannel.matches(Self.gpo, recorded: recorded, matching: .standard))
        #expect(!ReplayChannel.matches(Self.gpo, recorded: recorded, matching: .exact))
        let shorter = Self.command("80A800000483020000 00")
        #expect(!ReplayChannel.matches(shorter, recorded: recorded, matching: .standard))
        let otherP1 = Self.command("80AE40001D" + String(repeating: "11", count: 29) + "00")
        #expect(!ReplayChannel.matches(otherP1, recorded: Self.trace.exchanges[6].command, matching: .standard))
        let dynamic: [Instruction] = [
            .getProcessingOptions, .generateAC, .computeCryptographicChecksum, .internalAuthenticate,
            Instruction(rawValue: 0xEA),
        ]
        #expect(ReplayChannel.terminalDynamicInstructions == Set(dynamic))
    }

    @Test("Other commands must carry the same data; Le is ignored except in exact matching")
    func staticData() {
        let recorded = Self.trace.exchanges[1].command
        let noLe = Self.command("00A4040007A0000000031010")
        #expect(ReplayChannel.matches(noLe, recorded: recorded, matching: .standard))
        #expect(!ReplayChannel.matches(noLe, recorded: recorded, matching: .exact))
        let mastercard = Self.command("00A4040007A000000004101000")
        #expect(!ReplayChannel.matches(mastercard, recorded: recorded, matching: .standard))
        let otherCLA = Self.command("80A4040007A000000003101000")
        #expect(!ReplayChannel.matches(otherCLA, recorded: recorded, matching: .standard))
    }

    @Test("A mismatch names the trace line the command was compared with")
    func mismatch() async throws {
        let channel = ReplayChannel(trace: Self.trace)
        _ = try await channel.transmit(Self.ppse)
        do {
            _ = try await channel.transmit(Self.command("00A4040007A000000004101000"))
            Issue.record("expected a mismatch")
        } catch {
            #expect(error == .unexpectedCommand)
            #expect(error.traceLine == 4)
            #expect(error.message.contains("trace line 4"))
            #expect(error.message.contains("00A40400"))
            // The message names headers and lengths, not data.
            #expect(!error.message.contains("A0000000041010"))
        }
        // The cursor did not move: the right command still gets its answer.
        #expect(try await channel.transmit(Self.selectVisa) == Self.trace.exchanges[1].response)
    }

    @Test("A GPO with the wrong data length is a mismatch")
    func gpoLength() async throws {
        let channel = ReplayChannel(trace: Self.trace)
        _ = try await channel.transmit(Self.ppse)
        _ = try await channel.transmit(Self.selectVisa)
        await #expect(throws: SmartCardError.unexpectedCommand) {
            try await channel.transmit(Self.command("80A8000002830000"))
        }
    }

    @Test("Strict matching compares every byte")
    func strictMismatch() async throws {
        let channel = ReplayChannel(trace: Self.trace, options: .strict)
        _ = try await channel.transmit(Self.ppse)
        _ = try await channel.transmit(Self.selectVisa)
        await #expect(throws: SmartCardError.unexpectedCommand) { try await channel.transmit(Self.gpo) }
    }

    @Test("READ RECORDs may come in another order within their run")
    func recordReordering() async throws {
        let channel = ReplayChannel(trace: Self.trace)
        for command in [Self.ppse, Self.selectVisa, Self.gpo] { _ = try await channel.transmit(command) }
        #expect(try await channel.transmit(Self.record2) == Self.trace.exchanges[4].response)
        #expect(try await channel.transmit(Self.record1) == Self.trace.exchanges[3].response)
        // A record answered once is not answered again.
        await #expect(throws: SmartCardError.unexpectedCommand) { try await channel.transmit(Self.record1) }
        #expect(try await channel.transmit(Self.getData) == Self.trace.exchanges[5].response)
    }

    @Test("Without reordering, records must come in the recorded order")
    func noRecordReordering() async throws {
        let channel = ReplayChannel(trace: Self.trace, options: .init(reordersRecords: false))
        for command in [Self.ppse, Self.selectVisa, Self.gpo] { _ = try await channel.transmit(command) }
        await #expect(throws: SmartCardError.unexpectedCommand) { try await channel.transmit(Self.record2) }
    }

    @Test("Skippable instructions let a kernel pass over what it does not send")
    func skipping() async throws {
        let strict = ReplayChannel(trace: Self.trace)
        let skipping = ReplayChannel(trace: Self.trace, options: .init(skippableInstructions: [.getData]))
        for channel in [strict, skipping] {
            for command in [Self.ppse, Self.selectVisa, Self.gpo, Self.record1, Self.record2] {
                _ = try await channel.transmit(command)
            }
        }
        await #expect(throws: SmartCardError.unexpectedCommand) { try await strict.transmit(Self.generateAC) }
        #expect(try await skipping.transmit(Self.generateAC) == Self.trace.exchanges[6].response)
        #expect(await skipping.isFinished)
    }

    @Test("A skipped exchange is not skipped when nothing later matches")
    func skippingNeedsAMatch() async throws {
        let channel = ReplayChannel(trace: Self.trace, options: .init(skippableInstructions: [.getData]))
        for command in [Self.ppse, Self.selectVisa, Self.gpo, Self.record1, Self.record2] {
            _ = try await channel.transmit(command)
        }
        do {
            _ = try await channel.transmit(Self.ppse)
            Issue.record("expected a mismatch")
        } catch {
            #expect(error.traceLine == 8)
        }
        #expect(try await channel.transmit(Self.getData) == Self.trace.exchanges[5].response)
    }

    @Test("Rewinding starts over")
    func rewind() async throws {
        let channel = ReplayChannel(trace: Self.trace)
        _ = try await channel.transmit(Self.ppse)
        await channel.rewind()
        #expect(await channel.remainingExchanges == 7)
        #expect(try await channel.transmit(Self.ppse) == Self.trace.exchanges[0].response)
    }

    @Test("An empty trace is exhausted at once")
    func emptyTrace() async {
        let channel = ReplayChannel(trace: APDUTrace())
        #expect(await channel.isFinished)
        await #expect(throws: SmartCardError.traceExhausted) { try await channel.transmit(Self.ppse) }
    }
}
