import CardEmulator
import EMV
import Foundation
import Gateway
import GatewayAPI
import Issuer
import ServerDrivenReader
import SmartCard
import TapToPay
import Testing
import TestMode
import ValueAddedServices

/// Server-driven readers end to end: the merchant's server sends commands over the live gateway's API, a
/// ``ServerDrivenReader`` (the TapToPay SDK on the loopback) runs them, and the reader's events come back as
/// Server-Sent Events.
@Suite(.serialized) struct ServerDrivenReaderTests {
    @Test func paymentsPINDeclinesVerificationsAndRefundsRunOnTheReader() async throws {
        try await ReaderHarness.with(card: .approve) { harness in
            let paid = try await harness.run(.init(type: .payment, amount: 1_234, currency: "EUR"))
            #expect(paid.command.status == .completed)
            #expect(paid.command.result?.payment?.status == .succeeded)
            #expect(paid.command.result?.payment?.deviceId == harness.readerId)
            #expect(
                paid.events == [
                    .commandStarted, .readyForTap, .cardDetected, .removeCard, .readCompleted, .authorizing,
                    .commandEnded,
                ])

            harness.card = .onlinePINRequired
            let withPIN = try await harness.run(.init(type: .payment, amount: 2_000, currency: "EUR"))
            #expect(withPIN.command.result?.payment?.status == .succeeded)
            #expect(withPIN.events.contains(.pinEntryRequested) && withPIN.events.contains(.pinEntryCompleted))
            // The PIN token is the reader's: the merchant's side never sees it.
            #expect(withPIN.command.result?.payment?.pinRequest == nil)

            harness.card = .insufficientFunds
            let declined = try await harness.run(.init(type: .payment, amount: 2_000, currency: "EUR"))
            #expect(declined.command.status == .completed)
            #expect(declined.command.result?.payment?.status == .declined)
            #expect(declined.command.result?.payment?.failureCode == "insufficientFunds")

            harness.card = .approve
            let lookUp = try await harness.run(
                .init(type: .verification, currency: "EUR", verificationReason: .lookUp))
            #expect(lookUp.command.result?.payment?.kind == .verification)
            #expect(lookUp.command.result?.payment?.status == .succeeded)
            #expect(lookUp.command.result?.payment?.card?.last4 == paid.command.result?.payment?.card?.last4)

            let refund = try await harness.run(.init(type: .refund, amount: 500, currency: "EUR"))
            #expect(refund.command.status == .completed)
            #expect(refund.command.result?.refund?.amount == 500)
        }
    }

    @Test func loyaltyReadsAloneAndWithAPaymentInOneTap() async throws {
        let program = try TestLoyaltyProgram()
        try await ReaderHarness.with(card: .approve, loyalty: program) { harness in
            let pass = TestLoyaltyProgram.passTypeIdentifier
            let read = try await harness.run(.init(type: .loyalty, currency: "EUR", loyaltyPasses: [pass]))
            #expect(read.command.status == .completed)
            #expect(read.command.result?.loyalty?.status == "success")
            #expect(read.command.result?.loyalty?.memberId == "member-1001")
            #expect(read.command.result?.payment == nil)

            let paid = try await harness.run(
                .init(type: .payment, amount: 450, currency: "EUR", loyaltyPasses: [pass]))
            #expect(paid.command.result?.payment?.status == .succeeded)
            #expect(paid.command.result?.loyalty?.memberId == "member-1001")

            // A phone without the shop's pass: the payment goes on, the loyalty result says so.
            let other = try await harness.run(
                .init(type: .payment, amount: 300, currency: "EUR", loyaltyPasses: ["pass.dev.contactless.test.tea"]))
            #expect(other.command.result?.payment?.status == .succeeded)
            #expect(other.command.result?.loyalty?.status == "dataNotFound")
            #expect(other.command.result?.loyalty?.memberId == nil)
        }
    }

    @Test func oneCommandAtATimeCancelAndBadRequestsAreRefused() async throws {
        try await ReaderHarness.with(card: .approve, taps: false) { harness in
            let first = try await harness.send(.init(type: .payment, amount: 1_000, currency: "EUR"))
            try await harness.waitForEvent(.readyForTap)
            let second = try await harness.api(
                .post, "/v1/readers/\(harness.readerId)/commands",
                CreateReaderCommandRequest(type: .payment, amount: 500, currency: "EUR"))
            #expect(second.status == 409 && second.problem?.code == "readerBusy")

            let canceling = try await harness.api(.post, "/v1/readers/\(harness.readerId)/cancel", [String: String]())
            #expect(canceling.status == 200)
            let canceled = try await harness.waitForEnd(of: first.id)
            #expect(canceled.status == .canceled)
            #expect(canceled.result?.failure?.code == "readCancelled")
            let nothing = try await harness.api(.post, "/v1/readers/\(harness.readerId)/cancel", [String: String]())
            #expect(nothing.status == 409 && nothing.problem?.code == "invalidState")

            // Requests that do not fit their type are refused before the reader hears of them.
            for bad in [
                CreateReaderCommandRequest(type: .payment, currency: "EUR"),
                CreateReaderCommandRequest(type: .payment, amount: -5, currency: "EUR"),
                CreateReaderCommandRequest(type: .payment, amount: 100, currency: "XYZ"),
                CreateReaderCommandRequest(type: .payment, amount: 100, currency: "eur"),
                CreateReaderCommandRequest(type: .verification, amount: 100, currency: "EUR"),
                CreateReaderCommandRequest(type: .refund, amount: 100, currency: "EUR", captureMethod: .manual),
                CreateReaderCommandRequest(
                    type: .payment, amount: 100, currency: "EUR", verificationReason: .lookUp),
                CreateReaderCommandRequest(type: .loyalty, currency: "EUR"),
                CreateReaderCommandRequest(type: .loyalty, amount: 100, currency: "EUR", loyaltyPasses: ["p"]),
                CreateReaderCommandRequest(type: .refund, amount: 100, currency: "EUR", loyaltyPasses: ["p"]),
                CreateReaderCommandRequest(type: .payment, amount: 100, currency: "EUR", loyaltyPasses: []),
                CreateReaderCommandRequest(
                    type: .payment, amount: 100, currency: "EUR", loyaltyPasses: ["a", "b", "c", "d", "e"]),
            ] {
                let refused = try await harness.api(.post, "/v1/readers/\(harness.readerId)/commands", bad)
                #expect(refused.status == 400 && refused.problem?.code == "invalidRequest", "\(bad)")
            }
            let unknown = try await harness.api(
                .post, "/v1/readers/no-such-reader/commands",
                CreateReaderCommandRequest(type: .payment, amount: 100, currency: "EUR"))
            #expect(unknown.status == 404)
            let readers = try await harness.api(.get, "/v1/readers", nil as String?)
            let list = try JSONDecoder.gatewayAPI.decode(ReaderList.self, from: readers.body)
            #expect(list.data.first { $0.id == harness.readerId }?.online == true)
            #expect(list.data.first { $0.id == harness.readerId }?.command == nil)
            // A reader session cannot send commands; an API key cannot poll as a reader.
            let asKey = try await harness.api(.get, "/v1/reader/commands/next?wait=0", nil as String?)
            #expect(asKey.status == 401)
        }
    }

    @Test func aReaderThatDisconnectsMidPaymentFailsItsCommandAndLeavesNoPayment() async throws {
        try await ReaderHarness.with(card: .approve, taps: false) { harness in
            let command = try await harness.send(.init(type: .payment, amount: 1_000, currency: "EUR"))
            try await harness.waitForEvent(.readyForTap)
            harness.network.cut()
            try await harness.disconnect()
            let ended = try await harness.waitForEnd(of: command.id)
            #expect(ended.status == .failed)
            #expect(ended.result?.failure?.code == "readerDisconnected")
            #expect(harness.events.contains(.readerDisconnected))
            let payments = try await harness.api(.get, "/v1/payments", nil as String?)
            #expect(try JSONDecoder.gatewayAPI.decode(PaymentList.self, from: payments.body).data.isEmpty)
            let offline = try await harness.api(
                .post, "/v1/readers/\(harness.readerId)/commands",
                CreateReaderCommandRequest(type: .payment, amount: 100, currency: "EUR"))
            #expect(offline.status == 409 && offline.problem?.code == "readerOffline")
        }
    }

    @Test func aReaderReconnectsAfterTheNetworkComesBack() async throws {
        try await ReaderHarness.with(card: .approve) { harness in
            harness.network.cut()
            // Its polls fail: it backs off (0.5 s, 1 s, …) and tries again.
            try await Task.sleep(for: .milliseconds(2_200))
            harness.network.restore()
            var online = false
            for _ in 0..<300 where !online {
                let list = try JSONDecoder.gatewayAPI.decode(
                    ReaderList.self, from: try await harness.api(.get, "/v1/readers", nil as String?).body)
                online = list.data.contains { $0.id == harness.readerId && $0.online }
                if !online { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(harness.network.failedRequests >= 2)
            let paid = try await harness.run(.init(type: .payment, amount: 700, currency: "EUR"))
            #expect(paid.command.result?.payment?.status == .succeeded)
        }
    }

    @Test func aReaderThatDisconnectsAwaitingThePINHasItsPaymentVoided() async throws {
        try await ReaderHarness.with(card: .onlinePINRequired, pinPad: .never) { harness in
            let command = try await harness.send(.init(type: .payment, amount: 2_000, currency: "EUR"))
            try await harness.waitForEvent(.pinEntryRequested)
            harness.network.cut()
            try await harness.disconnect()
            let ended = try await harness.waitForEnd(of: command.id)
            #expect(ended.status == .failed && ended.result?.failure?.code == "readerDisconnected")
            let paymentId = try #require(ended.result?.payment?.id)
            var status: PaymentStatus?
            for _ in 0..<100 {
                let response = try await harness.api(.get, "/v1/payments/\(paymentId)", nil as String?)
                status = try JSONDecoder.gatewayAPI.decode(Payment.self, from: response.body).status
                if status == .canceled { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(status == .canceled)
        }
    }
}

/// A linked merchant, a ``ServerDrivenReader`` on the loopback whose customer taps a test card whenever the reader
/// waits, the reader's event stream, and the merchant's API.
final class ReaderHarness: @unchecked Sendable {
    enum PINPad { case testPIN, never }

    let gateway: TestGateway
    let merchant: TestMerchant
    let readerId = "till-1"
    let network: CuttableTransport
    private let lock = NSLock()
    private var _card: TestCard.Behaviour
    private var _events: [ReaderEvent] = []
    private var agent: Task<Void, any Error>?
    private var streaming: Task<Void, Never>?

    var card: TestCard.Behaviour {
        get { lock.withLock { _card } }
        set { lock.withLock { _card = newValue } }
    }
    var events: [ReaderEvent.Kind] { lock.withLock { _events.map(\.type) } }

    private init(gateway: TestGateway, merchant: TestMerchant, card: TestCard.Behaviour) {
        self.gateway = gateway
        self.merchant = merchant
        network = CuttableTransport(gateway.transport)
        _card = card
    }

    /// With `loyalty`, the customer's phone carries its pass beside the card and the reader holds its key.
    static func with(
        card: TestCard.Behaviour, taps: Bool = true, pinPad: PINPad = .testPIN, loyalty: TestLoyaltyProgram? = nil,
        _ body: @Sendable (ReaderHarness) async throws -> Void
    ) async throws {
        try await TestGateway.with { gateway in
            let (merchant, _) = try await gateway.linkedMerchant()
            let harness = ReaderHarness(gateway: gateway, merchant: merchant, card: card)
            let interface = LoopbackInterface { _ in
                if pinPad == .testPIN { return .entered(TestCards.pin) }
                try? await Task.sleep(for: .seconds(30))
                return .cancelled
            }
            let sdk = PaymentCardReader(
                environment: ReaderEnvironment(
                    deviceID: harness.readerId, gateway: harness.network, interface: interface,
                    clock: gateway.clock.function, timeZone: TimeZone(identifier: "UTC") ?? .current))
            let tapping = Task {
                guard taps else { return }
                // One card per behaviour for the test's life: each tap spends its next ATC, as a real card's would.
                var cards: [TestCard.Behaviour: LoopbackChannel<EmulatedCard>] = [:]
                var phone: LoopbackChannel<PassAndPaymentApplet<EmulatedCard>>?
                for await event in sdk.events where event == .readyForTap {
                    let behaviour = harness.card
                    if cards[behaviour] == nil, let card = TestCards.card(behaviour, .visa) {
                        cards[behaviour] = try? TestCardTapper.card(
                            pan: card.pan, scheme: .visa, personalisedOn: gateway.clock.now,
                            clock: gateway.clock.function)
                    }
                    guard let channel = cards[behaviour] else { continue }
                    if let loyalty {
                        // The phone holds its own copy of the card: made once, so its ATCs move on too.
                        if phone == nil {
                            phone = await loyalty.phone(carrying: channel, clock: gateway.clock.function)
                        }
                        if let phone { await interface.tap(phone) }
                    } else {
                        await interface.tap(channel)
                    }
                }
            }
            let agent = ServerDrivenReader(
                reader: sdk, transport: harness.network, token: { try await gateway.token(merchant) }, pollWait: 1,
                loyaltyKeys: loyalty?.decryptor)
            harness.agent = Task { try await agent.run() }
            defer {
                tapping.cancel()
                harness.agent?.cancel()
                harness.streaming?.cancel()
            }
            try await harness.follow()
            try await body(harness)
        }
    }

    /// Subscribes to the reader's events once it is online.
    private func follow() async throws {
        for _ in 0..<200 {
            let list = try JSONDecoder.gatewayAPI.decode(
                ReaderList.self, from: try await api(.get, "/v1/readers", nil as String?).body)
            if list.data.contains(where: { $0.id == readerId && $0.online }) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        let response = try await gateway.transport.send(
            GatewayRequest(method: .get, path: "/v1/readers/\(readerId)/events", bearer: merchant.apiKey))
        #expect(response.status == 200)
        streaming = Task {
            var buffer = ""
            do {
                for try await chunk in response.body {
                    buffer += String(decoding: chunk, as: UTF8.self)
                    while let end = buffer.range(of: "\n\n") {
                        let block = buffer[..<end.lowerBound]
                        buffer.removeSubrange(..<end.upperBound)
                        guard let data = block.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }),
                            let event = try? JSONDecoder.gatewayAPI.decode(
                                ReaderEvent.self, from: Data(data.dropFirst(6).utf8))
                        else { continue }
                        lock.withLock { _events.append(event) }
                    }
                }
            } catch {}
        }
    }

    struct Run {
        var command: ReaderCommand
        var events: [ReaderEvent.Kind]
    }

    /// Sends `request` and waits for the command's end; its events from start to end.
    func run(_ request: CreateReaderCommandRequest) async throws -> Run {
        let before = lock.withLock { _events.count }
        let command = try await send(request)
        let ended = try await waitForEnd(of: command.id)
        let events = lock.withLock { _events[before...].filter { $0.command?.id == command.id }.map(\.type) }
        return Run(command: ended, events: events)
    }

    func send(_ request: CreateReaderCommandRequest) async throws -> ReaderCommand {
        let response = try await api(.post, "/v1/readers/\(readerId)/commands", request)
        #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        return try JSONDecoder.gatewayAPI.decode(ReaderCommand.self, from: response.body)
    }

    func waitForEnd(of id: String) async throws -> ReaderCommand {
        for _ in 0..<500 {
            if let ended = lock.withLock({
                _events.last { $0.type == .commandEnded && $0.command?.id == id }?.command
            }) {
                return ended
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw HarnessError(message: "command \(id) did not end; events: \(events)")
    }

    func waitForEvent(_ kind: ReaderEvent.Kind) async throws {
        for _ in 0..<500 {
            if events.contains(kind) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw HarnessError(message: "no \(kind); events: \(events)")
    }

    /// The reader is gone: its last poll ends, the clock passes the timeout, the sweep notices.
    func disconnect() async throws {
        try await Task.sleep(for: .milliseconds(1_200))
        gateway.clock.advance(by: gateway.application.readers.timeout + 1)
        await gateway.application.readers.sweep()
    }

    struct Response {
        var status: Int
        var body: Data
        var problem: Problem? { try? JSONDecoder.gatewayAPI.decode(Problem.self, from: body) }
    }

    func api(_ method: GatewayRequest.Method, _ path: String, _ body: (some Encodable)?) async throws -> Response {
        let response = try await gateway.transport.send(
            GatewayRequest(
                method: method, path: path, bearer: merchant.apiKey,
                body: try body.map { try JSONEncoder.gatewayAPI.encode($0) }))
        return Response(status: response.status, body: try await response.collect())
    }

    struct HarnessError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// The reader's network, which a test can cut: every request after ``cut()`` fails as if the link were down.
final class CuttableTransport: GatewayTransport, @unchecked Sendable {
    private let base: any GatewayTransport
    private let lock = NSLock()
    private var isCut = false
    private var failures = 0

    init(_ base: any GatewayTransport) { self.base = base }

    func cut() { lock.withLock { isCut = true } }
    func restore() { lock.withLock { isCut = false } }
    /// How many requests failed while cut.
    var failedRequests: Int { lock.withLock { failures } }

    func send(_ request: GatewayRequest) async throws -> GatewayResponse {
        let refused = lock.withLock {
            if isCut { failures += 1 }
            return isCut
        }
        if refused { throw URLError(.networkConnectionLost) }
        return try await base.send(request)
    }
}
