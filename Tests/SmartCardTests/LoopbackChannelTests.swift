import EMV
import SmartCard
import Testing

@Suite("LoopbackChannel")
struct LoopbackChannelTests {
    @Test("Commands reach the applet through the codecs and responses come back")
    func roundTrip() async throws {
        let channel = LoopbackChannel(applet: CounterApplet())
        let echo = try await channel.transmit(.echo([1, 2, 3]))
        #expect(echo == ResponseAPDU(data: [1, 2, 3], statusWord: .success))
        let unknown = try await channel.transmit(try CommandAPDU(cla: 0x80, ins: 0x55, p1: 0, p2: 0))
        #expect(unknown.statusWord == StatusWord(0x6D00))
        let received = await channel.applet.received
        #expect(received == [.echo([1, 2, 3]), try CommandAPDU(cla: 0x80, ins: 0x55, p1: 0, p2: 0)])
        #expect(await channel.commandCount == 2)
    }

    @Test("Extended-length commands survive the round trip")
    func extendedLength() async throws {
        let channel = LoopbackChannel(applet: CounterApplet())
        let data = [UInt8](repeating: 0x5A, count: 300)
        let response = try await channel.transmit(.echo(data))
        #expect(response.data == data)
    }

    @Test("withApplet reads and changes the applet between transactions")
    func withApplet() async throws {
        let channel = LoopbackChannel(applet: CounterApplet())
        await channel.withApplet { $0.counter = 41 }
        let response = try await channel.transmit(.count)
        #expect(response.data == [0, 42])
        let counter = await channel.withApplet { $0.counter }
        #expect(counter == 42)
    }

    @Test("Removing and presenting the card resets the applet and keeps persistent state")
    func fieldExit() async throws {
        let channel = LoopbackChannel(applet: CounterApplet())
        _ = try await channel.transmit(.selectAny)
        _ = try await channel.transmit(.count)
        #expect(try await channel.transmit(.isSelected).data == [1])

        await channel.removeCard()
        #expect(await channel.isCardPresent == false)
        await #expect(throws: SmartCardError.cardRemoved) { try await channel.transmit(.count) }

        await channel.presentCard()
        #expect(try await channel.transmit(.isSelected).data == [0])
        #expect(try await channel.transmit(.count).data == [0, 2])
        #expect(await channel.applet.resets == 1)

        // Presenting a card already in the field is a new tap: one more reset.
        await channel.presentCard()
        #expect(await channel.applet.resets == 2)
    }

    @Test("Latency sleeps on the injected clock, once per command")
    func latency() async throws {
        let clock = ManualClock()
        let channel = LoopbackChannel(
            applet: CounterApplet(), faults: FaultPlan(latency: .milliseconds(30)), clock: clock)
        _ = try await channel.transmit(.count)
        _ = try await channel.transmit(.count)
        #expect(clock.state.sleeps == [.milliseconds(30), .milliseconds(30)])
    }

    @Test("No latency means no sleep")
    func noLatency() async throws {
        let clock = ManualClock()
        let channel = LoopbackChannel(applet: CounterApplet(), clock: clock)
        _ = try await channel.transmit(.count)
        #expect(clock.state.sleeps.isEmpty)
    }

    @Test("Latency on the real clock delays the answer")
    func realLatency() async throws {
        let channel = LoopbackChannel(applet: CounterApplet(), faults: FaultPlan(latency: .milliseconds(5)))
        let elapsed = try await ContinuousClock().measure { _ = try await channel.transmit(.count) }
        #expect(elapsed >= .milliseconds(5))
    }

    @Test("A cancelled wait fails the transmit")
    func cancelledLatency() async throws {
        let channel = LoopbackChannel(applet: CounterApplet(), faults: FaultPlan(latency: .seconds(60)))
        let task = Task { try await channel.transmit(.count) }
        task.cancel()
        await #expect(throws: SmartCardError.transmissionFailed) { try await task.value }
    }

    @Test("Card removed after N commands: the next one fails and the applet never sees it")
    func removedAfterCommands() async throws {
        let channel = LoopbackChannel(
            applet: CounterApplet(), faults: FaultPlan(faults: [.cardRemoved(afterCommands: 2)]))
        _ = try await channel.transmit(.count)
        _ = try await channel.transmit(.count)
        await #expect(throws: SmartCardError.cardRemoved) { try await channel.transmit(.count) }
        #expect(await channel.applet.counter == 2)
        #expect(await channel.applet.resets == 1)
        #expect(await channel.isCardPresent == false)
        // Still gone until presented again.
        await #expect(throws: SmartCardError.cardRemoved) { try await channel.transmit(.count) }
        await channel.presentCard()
        #expect(try await channel.transmit(.count).data == [0, 3])
    }

    @Test("Card removed at the Nth command with an instruction")
    func removedAtInstruction() async throws {
        let channel = LoopbackChannel(
            applet: CounterApplet(),
            faults: FaultPlan(faults: [.cardRemoved(at: .instruction(Instruction(rawValue: 0x02), occurrence: 2))]))
        _ = try await channel.transmit(.echo([1]))
        _ = try await channel.transmit(.count)
        _ = try await channel.transmit(.echo([2]))
        await #expect(throws: SmartCardError.cardRemoved) { try await channel.transmit(.count) }
        #expect(await channel.applet.counter == 1)
    }

    @Test("A lost response: the card processed the command, then left")
    func lostResponse() async throws {
        let channel = LoopbackChannel(
            applet: CounterApplet(), faults: FaultPlan(faults: [.responseLost(at: .command(number: 1))]))
        await #expect(throws: SmartCardError.cardRemoved) { try await channel.transmit(.count) }
        #expect(await channel.applet.counter == 1)
        #expect(await channel.isCardPresent == false)
    }

    @Test("A time-out: the card never sees the command and stays in the field")
    func timeOut() async throws {
        let channel = LoopbackChannel(
            applet: CounterApplet(), faults: FaultPlan(faults: [.timedOut(at: .command(number: 1))]))
        await #expect(throws: SmartCardError.timedOut) { try await channel.transmit(.count) }
        #expect(await channel.applet.counter == 0)
        #expect(await channel.isCardPresent)
        #expect(try await channel.transmit(.count).data == [0, 1])
    }

    @Test("A plan is empty without latency or faults")
    func planIsEmpty() {
        #expect(FaultPlan.none.isEmpty)
        #expect(!FaultPlan(latency: .milliseconds(1)).isEmpty)
        #expect(!FaultPlan(faults: [.cardRemoved(afterCommands: 0)]).isEmpty)
    }

    @Test(
        "A corrupted byte is flipped where the fault says",
        arguments: [
            (0, 0xFF as UInt8, ResponseAPDU(data: [0xFE, 2, 3], statusWord: .success)),
            (2, 0x01, ResponseAPDU(data: [1, 2, 2], statusWord: .success)),
            (-1, 0x01, ResponseAPDU(data: [1, 2, 3], statusWord: StatusWord(0x9001))),
            (-2, 0xFF, ResponseAPDU(data: [1, 2, 3], statusWord: StatusWord(0x6F00))),
            (5, 0xFF, ResponseAPDU(data: [1, 2, 3], statusWord: .success)),
            (-6, 0xFF, ResponseAPDU(data: [1, 2, 3], statusWord: .success)),
        ])
    func corruptedResponse(index: Int, mask: UInt8, expected: ResponseAPDU) async throws {
        let channel = LoopbackChannel(
            applet: CounterApplet(),
            faults: FaultPlan(faults: [.corruptedResponse(at: .command(number: 2), byte: index, mask: mask)]))
        #expect(try await channel.transmit(.echo([1, 2, 3])) == ResponseAPDU(data: [1, 2, 3], statusWord: .success))
        #expect(try await channel.transmit(.echo([1, 2, 3])) == expected)
        #expect(try await channel.transmit(.echo([1, 2, 3])) == ResponseAPDU(data: [1, 2, 3], statusWord: .success))
    }

    @Test(
        "A truncated response keeps its first bytes; the last two read as the status word",
        arguments: [
            (5, ResponseAPDU(data: [1, 2, 3], statusWord: .success)),
            (9, ResponseAPDU(data: [1, 2, 3], statusWord: .success)),
            (4, ResponseAPDU(data: [1, 2], statusWord: StatusWord(0x0390))),
            (2, ResponseAPDU(data: [], statusWord: StatusWord(0x0102))),
        ])
    func truncatedResponse(length: Int, expected: ResponseAPDU) async throws {
        let channel = LoopbackChannel(
            applet: CounterApplet(),
            faults: FaultPlan(faults: [
                .truncatedResponse(at: .instruction(Instruction(rawValue: 0x01)), toLength: length)
            ]))
        #expect(try await channel.transmit(.echo([1, 2, 3])) == expected)
    }

    @Test("A response cut below the status word is malformed", arguments: [-1, 0, 1])
    func truncatedBelowStatusWord(length: Int) async throws {
        let channel = LoopbackChannel(
            applet: CounterApplet(),
            faults: FaultPlan(faults: [.truncatedResponse(at: .command(number: 1), toLength: length)]))
        await #expect(throws: SmartCardError.malformedResponse) { try await channel.transmit(.echo([1, 2, 3])) }
        // The card is still there: the next command works.
        #expect(try await channel.transmit(.count).data == [0, 1])
    }

    @Test("Several faults on one response apply in order")
    func combinedFaults() async throws {
        let channel = LoopbackChannel(
            applet: CounterApplet(),
            faults: FaultPlan(faults: [
                .corruptedResponse(at: .command(number: 1), byte: 0, mask: 0x10),
                .truncatedResponse(at: .command(number: 1), toLength: 3),
            ]))
        #expect(
            try await channel.transmit(.echo([1, 2, 3])) == ResponseAPDU(data: [0x11], statusWord: StatusWord(0x0203)))
    }

    @Test("A new fault plan restarts the command count")
    func setFaults() async throws {
        let channel = LoopbackChannel(applet: CounterApplet())
        _ = try await channel.transmit(.count)
        _ = try await channel.transmit(.count)
        await channel.setFaults(FaultPlan(faults: [.cardRemoved(at: .command(number: 1))]))
        #expect(await channel.commandCount == 0)
        await #expect(throws: SmartCardError.cardRemoved) { try await channel.transmit(.count) }
        #expect(await channel.faults.faults.count == 1)
    }

    @Test("Errors never carry response bytes")
    func messagesAreClean() async throws {
        let secret: [UInt8] = [0x54, 0x13, 0x33, 0x00, 0x89, 0x02, 0x00, 0x12]
        let channel = LoopbackChannel(
            applet: CounterApplet(),
            faults: FaultPlan(faults: [.truncatedResponse(at: .command(number: 1), toLength: 1)]))
        do {
            _ = try await channel.transmit(.echo(secret))
            Issue.record("expected a malformed response")
        } catch {
            #expect(!error.description.contains(secret.hexString))
            #expect(!error.description.contains("54"))
        }
    }
}
