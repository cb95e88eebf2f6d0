import ArgumentParser
import EMV
import Foundation
import GatewayAPI
import Issuer
import Logging
import ServerDrivenReader
import TapToPay
import TestMode

extension Tap.Bench {
    /// The point of sale's checkout over a server-driven reader: charge → approved, and the SDK's own purchase as the
    /// baseline of the same run.
    struct PointOfSaleCheckouts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pos",
            abstract: "Time checkouts over a server-driven reader, charge to approved (median and p99).",
            discussion: """
                Starts a gateway in this process (SQLite in a temporary directory, the in-process issuer host) and a \
                server-driven reader (ServerDrivenReader, as `tap reader --loopback` runs it) polling it over HTTP. \
                Each checkout sends a payment command as a point of sale does (`POST /v1/readers/{id}/commands`) and \
                stops the clock when the reader's event stream (Server-Sent Events) says the command ended approved: \
                the command's hop to the reader, the tap on the loopback, the SDK's read, the read's hop back, the \
                authorization at the issuer host and the event's hop to the point of sale. The baseline, in the same \
                run, is the SDK's purchase without the hops (tap → read → POST /v1/payments, as `tap bench \
                taptopay`). Target: median at most 150 ms.
                """
        )

        @Option(help: "Checkouts to time.") var count: Int = 200
        @Option(help: "Checkouts run first and not counted.") var warmup: Int = 10
        @Flag(help: "Print one JSON object instead of text.") var json = false

        func validate() throws {
            guard (1...400).contains(count), (0...100).contains(warmup) else {
                throw ValidationError("--count must be from 1 to 400, --warmup from 0 to 100")
            }
        }

        struct Result: Encodable {
            var checkouts: Int
            var approved: Int
            var checkout: LatencySummary
            var baseline: LatencySummary
            /// Median checkout over median SDK purchase.
            var ratio: Double
            var targetMedianMs: Double
        }

        func run() async throws {
            let (count, warmup) = (count, warmup)
            let result = try await TestGateway.with(logLevel: .critical) { gateway in
                let (merchant, token) = try await gateway.linkedMerchant()
                let rounds = count + warmup

                // The server-driven reader, tapping the Visa card whenever it waits for one.
                let interface = LoopbackInterface()
                let sdk = gateway.reader(deviceID: "bench-counter", interface: interface)
                let card = try gateway.card(.approve, .visa, keyCount: rounds + 8)
                let tapping = Task {
                    for await event in sdk.events where event == .readyForTap { await interface.tap(card.channel) }
                }
                let agent = ServerDrivenReader(reader: sdk, transport: gateway.transport, token: { token })
                let running = Task { try await agent.run() }
                defer {
                    tapping.cancel()
                    running.cancel()
                }
                try await ReaderEvents.waitOnline(
                    "bench-counter", transport: gateway.transport, apiKey: merchant.apiKey)
                let events = try await ReaderEvents.follow(
                    "bench-counter", transport: gateway.transport, apiKey: merchant.apiKey)

                var checkouts = LatencySamples()
                var approved = 0
                let clock = ContinuousClock()
                for index in 0..<rounds {
                    let start = clock.now
                    let response = try await gateway.transport.send(
                        GatewayRequest(
                            method: .post, path: "/v1/readers/bench-counter/commands", bearer: merchant.apiKey,
                            body: try JSONEncoder.gatewayAPI.encode(
                                CreateReaderCommandRequest(type: .payment, amount: 25, currency: "EUR"))))
                    guard response.status == 201 else {
                        throw CommandFailure("the gateway refused the command: HTTP \(response.status)")
                    }
                    let sent = try JSONDecoder.gatewayAPI.decode(ReaderCommand.self, from: try await response.collect())
                    let ended = try await events.end(of: sent.id)
                    let end = clock.now
                    guard index >= warmup else { continue }
                    checkouts.record(end - start)
                    if ended.result?.payment?.status == .succeeded { approved += 1 }
                }

                // The baseline: the SDK's purchase, no hops.
                let baselineInterface = LoopbackInterface()
                let direct = gateway.reader(deviceID: "bench-phone", interface: baselineInterface)
                let session = try await direct.prepare(using: token)
                let baselineCard = try gateway.card(.approve, .mastercard, keyCount: rounds + 8)
                let request = PaymentCardTransactionRequest(amount: 0.25, currencyCode: "EUR")
                var baseline = LatencySamples()
                for index in 0..<rounds {
                    let start = clock.now
                    await baselineInterface.tap(baselineCard.channel)
                    let read = try await session.readPaymentCard(request)
                    _ = try await gateway.authorize(read, minorUnits: 25, for: merchant)
                    if index >= warmup { baseline.record(clock.now - start) }
                }
                let summary = checkouts.summary()
                return Result(
                    checkouts: count, approved: approved, checkout: summary, baseline: baseline.summary(),
                    ratio: summary.p50Ms / baseline.summary().p50Ms, targetMedianMs: 150)
            }
            if json { return try printJSON(result) }
            print(
                "tap bench pos: \(result.checkouts) checkouts over a server-driven reader, \(result.approved) approved")
            for (name, summary) in [
                ("charge → approved", result.checkout), ("SDK purchase (baseline)", result.baseline),
            ] {
                print(
                    "  " + name.padding(toLength: 26, withPad: " ", startingAt: 0)
                        + String(
                            format: "median %.3f ms  p99 %.3f ms  (min %.3f, max %.3f)", summary.p50Ms, summary.p99Ms,
                            summary.minMs, summary.maxMs))
            }
            print(
                String(
                    format: "  checkout / SDK purchase: %.2f×; target median ≤ 150 ms: %@", result.ratio,
                    result.checkout.p50Ms <= 150 ? "met" : "MISSED"))
            if result.approved != result.checkouts { throw ExitCode(1) }
        }
    }
}

/// A reader's Server-Sent Events, read as they come, for a command's end.
actor ReaderEvents {
    private var ended: [String: ReaderCommand] = [:]
    private var waiters: [String: CheckedContinuation<ReaderCommand, Never>] = [:]

    static func follow(_ readerId: String, transport: any GatewayTransport, apiKey: String) async throws
        -> ReaderEvents
    {
        let response = try await transport.send(
            GatewayRequest(method: .get, path: "/v1/readers/\(readerId)/events", bearer: apiKey))
        guard response.status == 200 else { throw CommandFailure("no event stream: HTTP \(response.status)") }
        let events = ReaderEvents()
        Task {
            var buffer = Data()
            for try await chunk in response.body {
                buffer.append(chunk)
                while let end = buffer.firstRange(of: Data("\n\n".utf8)) {
                    let block = buffer[buffer.startIndex..<end.lowerBound]
                    buffer.removeSubrange(buffer.startIndex..<end.upperBound)
                    for line in block.split(separator: UInt8(ascii: "\n")) where line.starts(with: Data("data: ".utf8))
                    {
                        if let event = try? JSONDecoder.gatewayAPI.decode(
                            ReaderEvent.self, from: Data(line.dropFirst(6))),
                            event.type == .commandEnded, let command = event.command
                        {
                            await events.record(command)
                        }
                    }
                }
            }
        }
        return events
    }

    /// Waits (10 s at most) until the reader asks the gateway for work.
    static func waitOnline(_ readerId: String, transport: any GatewayTransport, apiKey: String) async throws {
        for _ in 0..<1_000 {
            let response = try await transport.send(GatewayRequest(method: .get, path: "/v1/readers", bearer: apiKey))
            let list = try JSONDecoder.gatewayAPI.decode(ReaderList.self, from: try await response.collect())
            if list.data.contains(where: { $0.id == readerId && $0.online }) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw CommandFailure("reader \(readerId) did not come online")
    }

    private func record(_ command: ReaderCommand) {
        if let waiter = waiters.removeValue(forKey: command.id) {
            waiter.resume(returning: command)
        } else {
            ended[command.id] = command
        }
    }

    /// The command `id` as it ended.
    func end(of id: String) async throws -> ReaderCommand {
        if let command = ended.removeValue(forKey: id) { return command }
        return await withCheckedContinuation { waiters[id] = $0 }
    }
}
