import EMV
import SmartCard
import Testing

@Suite("RecordingChannel")
struct RecordingChannelTests {
    @Test("Records each command with its response and timing, and passes the response on")
    func records() async throws {
        let clock = ManualClock()
        let loopback = LoopbackChannel(
            applet: CounterApplet(), faults: FaultPlan(latency: .milliseconds(2)), clock: clock)
        let recorder = RecordingChannel(loopback, clock: clock)
        #expect(try await recorder.transmit(.echo([7])) == ResponseAPDU(data: [7], statusWord: .success))
        #expect(try await recorder.transmit(.count).data == [0, 1])
        let exchanges = await recorder.exchanges
        #expect(exchanges.map(\.command) == [.echo([7]), .count])
        #expect(
            exchanges.map(\.response) == [
                ResponseAPDU(data: [7], statusWord: .success), ResponseAPDU(data: [0, 1], statusWord: .success),
            ])
        // The manual clock moves only by the loopback's latency.
        #expect(exchanges.map(\.start) == [.zero, .milliseconds(2)])
        #expect(exchanges.map(\.duration) == [.milliseconds(2), .milliseconds(2)])
    }

    @Test("Errors are recorded and rethrown")
    func recordsErrors() async throws {
        let loopback = LoopbackChannel(
            applet: CounterApplet(), faults: FaultPlan(faults: [.cardRemoved(afterCommands: 1)]))
        let recorder = RecordingChannel(loopback)
        _ = try await recorder.transmit(.count)
        await #expect(throws: SmartCardError.cardRemoved) { try await recorder.transmit(.count) }
        let exchanges = await recorder.exchanges
        #expect(exchanges.count == 2)
        #expect(exchanges[1].response == nil)
        #expect(throws: SmartCardError.cardRemoved) { try exchanges[1].result.get() }
        // A trace holds the answered exchanges only.
        #expect(await recorder.trace().exchanges.count == 1)
    }

    @Test("The recording becomes a trace that replays to the same responses")
    func traceReplays() async throws {
        let recorder = RecordingChannel(LoopbackChannel(applet: CounterApplet()))
        let commands: [CommandAPDU] = [.selectAny, .isSelected, .count, .echo([1, 2, 3]), .count]
        for command in commands { _ = try await recorder.transmit(command) }
        let trace = await recorder.trace(header: ["source: RecordingChannelTests"])
        let parsed = try APDUTrace(text: trace.text)
        #expect(parsed == trace)
        #expect(parsed.headerValue("source") == "RecordingChannelTests")
        let replay = ReplayChannel(trace: parsed, options: .strict)
        for (command, exchange) in zip(commands, trace.exchanges) {
            #expect(try await replay.transmit(command) == exchange.response)
        }
    }

    @Test("Timings go into the trace's notes on request")
    func timings() async throws {
        let clock = ManualClock()
        let loopback = LoopbackChannel(
            applet: CounterApplet(), faults: FaultPlan(latency: .microseconds(1_250)), clock: clock)
        let recorder = RecordingChannel(loopback, clock: clock)
        _ = try await recorder.transmit(.count)
        _ = try await recorder.transmit(.count)
        let trace = await recorder.trace(timings: true)
        #expect(trace.exchanges.map(\.note) == ["+0.000 ms, 1.250 ms", "+1.250 ms, 1.250 ms"])
        #expect(await recorder.trace().exchanges.allSatisfy { $0.note == nil })
    }

    @Test("Clearing forgets the exchanges and restarts the clock")
    func clear() async throws {
        let clock = ManualClock()
        let recorder = RecordingChannel(LoopbackChannel(applet: CounterApplet()), clock: clock)
        _ = try await recorder.transmit(.count)
        clock.state.advance(.seconds(3))
        await recorder.clear()
        #expect(await recorder.exchanges.isEmpty)
        _ = try await recorder.transmit(.count)
        #expect(await recorder.exchanges.map(\.start) == [.zero])
    }
}
