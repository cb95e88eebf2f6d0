import EMV
import Foundation
import Logging
import ServiceLifecycle
import SmartCard
import Testing

/// The link against a fake vpcd on 127.0.0.1: real sockets, real frames, real reconnects.
@Suite("VirtualCardLink", .timeLimit(.minutes(1)))
struct VirtualCardLinkTests {
    static func link(
        port: UInt16, events: EventLog, reconnectDelay: ClosedRange<Duration> = .milliseconds(10) ... .milliseconds(50)
    ) throws -> VirtualCardLink<CounterApplet> {
        try VirtualCardLink(
            applet: CounterApplet(), endpoint: VPCDEndpoint(host: "127.0.0.1", port: port),
            reconnectDelay: reconnectDelay, onEvent: events.record)
    }

    /// Runs the link while `body` plays vpcd, then cancels it and checks it stopped.
    static func serving(
        _ link: VirtualCardLink<CounterApplet>, _ body: () async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await link.run() }
            do {
                try await body()
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
            try await group.waitForAll()
        }
    }

    static func command(_ apdu: CommandAPDU, over connection: FakeVPCD.Connection) async throws -> [UInt8] {
        try await connection.send(frame: apdu.bytes)
        return try await connection.receiveFrame()
    }

    @Test("power on, get ATR, commands split in two writes, reset and power off, as pcscd drives vpcd")
    func session() async throws {
        let vpcd = try FakeVPCD()
        let events = EventLog()
        let link = try Self.link(port: vpcd.port, events: events)
        try await Self.serving(link) {
            let connection = try await vpcd.accept()
            try await connection.send(frame: [0x01])
            try await connection.send(frame: [0x04])
            #expect(try await connection.receiveFrame() == [0x3B, 0x80, 0x80, 0x01, 0x01])
            #expect(try await Self.command(.selectAny, over: connection) == [0x90, 0x00])
            #expect(try await Self.command(.isSelected, over: connection) == [0x01, 0x90, 0x00])
            #expect(try await Self.command(.count, over: connection) == [0x00, 0x01, 0x90, 0x00])
            #expect(try await Self.command(.echo([1, 2, 3]), over: connection) == [1, 2, 3, 0x90, 0x00])
            try await connection.send(frame: [0x02])
            #expect(try await Self.command(.isSelected, over: connection) == [0x00, 0x90, 0x00])
            #expect(try await Self.command(.count, over: connection) == [0x00, 0x02, 0x90, 0x00])
            try await connection.send(frame: [0x00])
            try await connection.send(frame: [0x01])
            try await connection.send(frame: [0x04], split: false)
            #expect(try await connection.receiveFrame() == [0x3B, 0x80, 0x80, 0x01, 0x01])
            #expect(try await Self.command(.count, over: connection) == [0x00, 0x03, 0x90, 0x00])
        }
        let card = link.withCard { $0 }
        #expect(card.applet.counter == 3)
        #expect(card.commandCount == 7)
        let all = events.all
        #expect(all.first == .connected(VPCDEndpoint(host: "127.0.0.1", port: vpcd.port)))
        #expect(all.filter { $0 == .poweredOn }.count == 2)
        #expect(all.contains(.reset) && all.contains(.poweredOff))
        #expect(all.filter { $0 == .answerToResetSent }.count == 2)
        #expect(all.last == .stopped)
    }

    @Test(
        "malformed frames are ignored or answered 6700; a frame cut short by the close is reported and the card reconnects"
    )
    func malformedFrames() async throws {
        let vpcd = try FakeVPCD()
        let events = EventLog()
        let link = try Self.link(port: vpcd.port, events: events)
        try await Self.serving(link) {
            let first = try await vpcd.accept()
            try await first.send(raw: [0x00, 0x00])  // zero length: ignored
            try await first.send(frame: [0x03])  // unknown control code: ignored
            try await first.send(frame: [0x00, 0xA4, 0x04])  // not an APDU
            #expect(try await first.receiveFrame() == [0x67, 0x00])
            try await first.send(frame: [0x00, 0xA4, 0x04, 0x00, 0x09, 0xA0])  // Lc beyond the data
            #expect(try await first.receiveFrame() == [0x67, 0x00])
            #expect(try await Self.command(.count, over: first) == [0x00, 0x01, 0x90, 0x00])
            try await first.send(raw: [0x01, 0x00, 0x00, 0xA4])  // announces 256 bytes, sends 2, closes
            first.close()
            let second = try await vpcd.accept()
            #expect(try await Self.command(.count, over: second) == [0x00, 0x02, 0x90, 0x00])
        }
        let rejected = events.all.compactMap { event -> VPCDError.Code? in
            if case .frameRejected(let error) = event { return error.code }
            return nil
        }
        #expect(rejected == [.emptyFrame, .unknownControlCode, .malformedCommand, .malformedCommand])
        #expect(events.all.contains(.disconnected(VPCDError.truncatedFrame)))
    }

    @Test("an oversize response is answered 6F00 over the wire")
    func oversizeResponse() async throws {
        let vpcd = try FakeVPCD()
        let link = try Self.link(port: vpcd.port, events: EventLog())
        try await Self.serving(link) {
            let connection = try await vpcd.accept()
            #expect(try await Self.command(.zeros(65_534), over: connection) == [0x6F, 0x00])
            #expect(try await Self.command(.zeros(65_533), over: connection).count == 65_535)
        }
    }

    @Test("when vpcd closes the connection the card is removed, reconnects, and keeps its persistent state")
    func reconnect() async throws {
        let vpcd = try FakeVPCD()
        let events = EventLog()
        let link = try Self.link(port: vpcd.port, events: events)
        try await Self.serving(link) {
            let first = try await vpcd.accept()
            try await first.send(frame: [0x01])
            #expect(try await Self.command(.selectAny, over: first) == [0x90, 0x00])
            #expect(try await Self.command(.count, over: first) == [0x00, 0x01, 0x90, 0x00])
            first.close()
            let second = try await vpcd.accept()
            #expect(try await Self.command(.isSelected, over: second) == [0x00, 0x90, 0x00])
            #expect(try await Self.command(.count, over: second) == [0x00, 0x02, 0x90, 0x00])
        }
        // At least: the second connection's close at the end of the test may bring a third before the cancel.
        #expect(events.all.filter { if case .connected = $0 { true } else { false } }.count >= 2)
        #expect(events.all.contains(.disconnected(VPCDError.connectionClosed)))
    }

    @Test("while vpcd is not running the link retries with back-off, and connects once it listens")
    func waitsForVPCD() async throws {
        let vpcd = try FakeVPCD(listening: false)
        let events = EventLog()
        let link = try Self.link(port: vpcd.port, events: events)
        try await Self.serving(link) {
            let failed = try await events.wait { event in
                if case .connectionFailed(let error, let attempt, _) = event {
                    return error.code == .connectionFailed && attempt >= 3
                }
                return false
            }
            #expect(failed)
            try vpcd.startListening()
            let connection = try await vpcd.accept()
            #expect(try await Self.command(.count, over: connection) == [0x00, 0x01, 0x90, 0x00])
        }
        let delays = events.all.compactMap { event -> Duration? in
            if case .connectionFailed(_, _, let delay) = event { return delay }
            return nil
        }
        #expect(delays.prefix(3) == [.milliseconds(10), .milliseconds(20), .milliseconds(40)])
        #expect(delays.allSatisfy { $0 <= .milliseconds(50) })
    }

    @Test("cancellation stops the link at once while it waits for vpcd's next frame, and closes the connection")
    func cancelWhileReceiving() async throws {
        let vpcd = try FakeVPCD()
        let events = EventLog()
        let link = try Self.link(port: vpcd.port, events: events)
        let task = Task { try await link.run() }
        let connection = try await vpcd.accept()
        #expect(try await Self.command(.count, over: connection) == [0x00, 0x01, 0x90, 0x00])
        let started = ContinuousClock.now
        task.cancel()
        try await task.value
        #expect(ContinuousClock.now - started < .seconds(2))  // generous: CI machines are loaded
        try await connection.expectClosed()
        #expect(events.all.last == .stopped)
        #expect(link.withCard { $0.isPowered } == false)
    }

    @Test("cancellation stops the link during a long back-off")
    func cancelWhileBackingOff() async throws {
        let vpcd = try FakeVPCD(listening: false)
        let events = EventLog()
        let link = try Self.link(port: vpcd.port, events: events, reconnectDelay: .seconds(30) ... .seconds(30))
        let task = Task { try await link.run() }
        #expect(try await events.wait { if case .connectionFailed = $0 { true } else { false } })
        let started = ContinuousClock.now
        task.cancel()
        try await task.value
        #expect(ContinuousClock.now - started < .seconds(2))  // generous: CI machines are loaded
    }

    @Test("in a ServiceGroup, graceful shutdown ends the link and the group, and removes the card")
    func gracefulShutdown() async throws {
        let vpcd = try FakeVPCD()
        let events = EventLog()
        let link = try Self.link(port: vpcd.port, events: events)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [link], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })))
        let running = Task { try await group.run() }
        let connection = try await vpcd.accept()
        try await connection.send(frame: [0x01])
        #expect(try await Self.command(.count, over: connection) == [0x00, 0x01, 0x90, 0x00])
        await group.triggerGracefulShutdown()
        try await running.value
        try await connection.expectClosed()
        #expect(events.all.last == .stopped)
    }

    @Test("HOST:PORT parsing")
    func endpoints() throws {
        #expect(try VPCDEndpoint(parsing: "127.0.0.1:35963") == .local)
        #expect(try VPCDEndpoint(parsing: "localhost") == VPCDEndpoint(host: "localhost", port: 35963))
        #expect(try VPCDEndpoint(parsing: "[::1]:35964") == VPCDEndpoint(host: "::1", port: 35964))
        #expect(VPCDEndpoint(host: "::1", port: 1).description == "[::1]:1")
        for bad in ["", ":35963", "host:", "host:0", "host:65536", "host:x", "[::1]x", "a b:1"] {
            #expect(throws: VPCDError.invalidEndpoint, "\(bad)") { try VPCDEndpoint(parsing: bad) }
        }
    }

    @Test("events read as one line each, without card data")
    func eventLines() throws {
        let refused = VPCDError(code: .connectionFailed, message: "connect to 127.0.0.1:1 failed: Connection refused")
        #expect(
            VirtualCardEvent.connectionFailed(refused, attempt: 2, retryAfter: .milliseconds(100)).description
                == "vpcd not reachable (connect to 127.0.0.1:1 failed: Connection refused); attempt 2, retrying in 100 ms"
        )
        #expect(
            VirtualCardEvent.connectionFailed(refused, attempt: 9, retryAfter: .milliseconds(1500)).description
                .hasSuffix("retrying in 1.5 s"))
        #expect(VirtualCardEvent.connected(.local).description == "connected to vpcd at 127.0.0.1:35963: card inserted")
        #expect(VirtualCardEvent.poweredOn.description == "power on")
        let malformed = VirtualCardEvent.frameRejected(
            VPCDError(
                code: .malformedCommand, message: "a command of 3 bytes is not an APDU (truncatedHeader); answered 6700"
            ))
        #expect(!malformed.description.contains("00A404"))
    }

    @Test("a zero reconnect delay is raised to a millisecond, so a refused connection never spins")
    func reconnectDelayFloor() throws {
        let link = try VirtualCardLink(applet: CounterApplet(), reconnectDelay: .zero ... .zero)
        #expect(link.reconnectDelay == .milliseconds(1) ... .milliseconds(1))
    }
}
