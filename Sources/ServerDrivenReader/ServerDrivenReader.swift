import Foundation
public import GatewayAPI
public import TapToPay
import EMV
public import ValueAddedServices

/// A reader the gateway drives (`tap reader`): the TapToPay SDK on a contactless interface, prepared for a merchant,
/// taking its commands from the gateway instead of from an app on the same device.
///
/// ``run()`` prepares (the account must be linked: an admin accepts the terms), then long-polls
/// `GET /v1/reader/commands/next` with the reader session, reconnecting with backoff (0.5 s doubling to 10 s) when
/// the gateway cannot be reached and preparing again when the session expires. A command is run on the SDK: the
/// SDK's events go to the gateway as they happen (`…/events`), the sealed read to `…/read`, where the gateway
/// authorizes it; when the issuer asks for the PIN, the reader's PIN pad captures it (sealed again with the PIN
/// block, never in clear) and it goes to `…/pin`. A read that fails, or is canceled from the point of sale, is
/// reported to `…/failure`.
public actor ServerDrivenReader {
    /// What the reader is doing, for its operator's screen.
    public enum Activity: Sendable, Equatable {
        /// Prepared for the merchant, as this device.
        case prepared(merchantName: String?)
        /// Connected to the gateway (again).
        case connected
        /// The gateway could not be reached; the next try is after the delay.
        case unreachable(retryIn: Duration)
        /// A command arrived.
        case started(ReaderCommand)
        /// The point of sale canceled the running command.
        case cancelRequested(String)
        /// The command ended (as the gateway says).
        case ended(ReaderCommand)
    }

    /// Why the reader stopped.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong, in plain words.
        public var description: String
    }

    private let reader: PaymentCardReader
    private let transport: any GatewayTransport
    private let token: @Sendable () async throws -> PaymentCardReader.Token
    private let observe: @Sendable (Activity) -> Void
    private let pollWait: Int
    private let loyaltyKeys: VASDecryptor?
    private var session: PaymentCardReaderSession?
    private var bearer = ""
    private var running: (id: String, task: Task<Void, Never>)?
    private var connected = false

    /// A reader on `reader` (the SDK with its contactless interface and PIN pad) talking to the gateway over
    /// `transport`; `token` gives a reader token of the merchant (asked again when a new prepare needs one);
    /// `observe` hears what it does. Its polls wait up to `pollWait` seconds for work (the gateway caps the wait at
    /// half its reader timeout). With `loyaltyKeys` (the merchant's VAS keys, on its own counter) the reader opens the
    /// loyalty passes it reads and reports their member ids; without, only whether a pass answered.
    public init(
        reader: PaymentCardReader, transport: any GatewayTransport,
        token: @escaping @Sendable () async throws -> PaymentCardReader.Token, pollWait: Int = 20,
        loyaltyKeys: VASDecryptor? = nil, observe: @escaping @Sendable (Activity) -> Void = { _ in }
    ) {
        self.reader = reader
        self.transport = transport
        self.token = token
        self.pollWait = pollWait
        self.loyaltyKeys = loyaltyKeys
        self.observe = observe
    }

    /// Prepares, then takes commands until the task is canceled.
    /// - Throws: ``Failure`` when the account is not linked or the gateway refuses the reader's credentials;
    ///   the SDK's errors of a prepare that fails.
    public func run() async throws {
        try await prepare()
        var failures = 0
        while !Task.isCancelled {
            let response: GatewayResponse
            do {
                var path = "/v1/reader/commands/next?wait=\(pollWait)"
                if let running { path += "&running=\(running.id)" }
                response = try await transport.send(GatewayRequest(method: .get, path: path, bearer: bearer))
            } catch {
                failures += 1
                connected = false
                let delay = Self.backoff(afterFailures: failures)
                observe(.unreachable(retryIn: delay))
                try? await Task.sleep(for: delay)
                continue
            }
            failures = 0
            if !connected {
                connected = true
                observe(.connected)
            }
            switch response.status {
            case 204:
                continue
            case 200:
                let instruction = try await Self.decode(ReaderInstruction.self, response)
                await handle(instruction)
            case 401:
                // The session expired or was revoked: a new prepare gets a new one (or says why not).
                try await prepare()
            default:
                let problem = try? await Self.decode(Problem.self, response)
                throw Failure(
                    description: "the gateway refused the reader: \(problem?.detail ?? "HTTP \(response.status)")")
            }
        }
        running?.task.cancel()
    }

    /// 0.5 s, doubling up to 10 s.
    static func backoff(afterFailures failures: Int) -> Duration {
        .milliseconds(min(10_000, 500 << min(failures - 1, 5)))
    }

    private func prepare() async throws {
        let token = try await token()
        guard try await reader.isAccountLinked(using: token) else {
            throw Failure(
                description: "the merchant's account is not linked: an admin accepts the Terms and Conditions first")
        }
        let session = try await reader.prepare(using: token)
        guard let gatewaySession = await session.gatewaySession else {
            throw Failure(description: "the prepare gave no session")
        }
        self.session = session
        bearer = gatewaySession.token
        observe(.prepared(merchantName: await session.merchantName))
    }

    private func handle(_ instruction: ReaderInstruction) async {
        if let cancel = instruction.cancel, cancel == running?.id {
            observe(.cancelRequested(cancel))
            _ = await session?.cancelRead()
        }
        if let command = instruction.command, running == nil, let session {
            observe(.started(command))
            let execution = CommandExecution(
                command: command, session: session, reader: reader, transport: transport, bearer: bearer,
                loyaltyKeys: loyaltyKeys)
            let task = Task {
                let ended = await execution.run()
                self.finished(command.id, ended)
            }
            running = (command.id, task)
        }
    }

    private func finished(_ id: String, _ command: ReaderCommand?) {
        if running?.id == id { running = nil }
        if let command { observe(.ended(command)) }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ response: GatewayResponse) async throws -> T {
        try JSONDecoder.gatewayAPI.decode(T.self, from: try await response.collect())
    }
}

/// One command on the SDK: the read, its events, the gateway's authorization, the PIN when asked.
struct CommandExecution: Sendable {
    let command: ReaderCommand
    let session: PaymentCardReaderSession
    let reader: PaymentCardReader
    let transport: any GatewayTransport
    let bearer: String
    let loyaltyKeys: VASDecryptor?

    /// How many times a cardholder may enter the PIN again after the issuer said it was wrong.
    static let pinAttempts = 3

    /// Runs the command; the command as the gateway ended it (nil when the gateway could not be told).
    func run() async -> ReaderCommand? {
        let forwarder = EventForwarder(command: command.id, transport: transport, bearer: bearer)
        let events = reader.events
        let forwarding = Task {
            for await event in events {
                if let kind = Self.kind(of: event) { await forwarder.send(kind) }
            }
        }
        defer { forwarding.cancel() }
        let read: PaymentCardReadResult
        var loyalty: ReaderLoyaltyResult?
        do {
            if command.type == .loyalty {
                let passes = try await session.readVAS(vasRequest())
                await forwarder.drain(expecting: .readCompleted)
                return try? await post("loyalty", loyaltyResult(passes))
            }
            (read, loyalty) = try await self.read()
        } catch let error as PaymentCardReaderSession.ReadError {
            await forwarder.drain(expecting: .readNotCompleted)
            return await fail(error.errorName, error.errorDescription)
        } catch {
            await forwarder.drain(expecting: .readNotCompleted)
            return await fail("cardReadFailed", "The card could not be read.")
        }
        await forwarder.drain(expecting: .readCompleted)
        do {
            var answer = try await post(
                "read", ReaderReadSubmission(cardData: try read.sealedCardData(), loyalty: loyalty))
            var attempts = 0
            while answer.status == .inProgress, let request = answer.result?.payment?.pinRequest {
                attempts += 1
                let capture = try await session.capturePIN(
                    using: PaymentCardReaderSession.PINToken(rawValue: request.pinToken),
                    cardReaderTransactionID: read.id)
                await forwarder.drain(expecting: .pinEntryCompleted)
                do {
                    answer = try await post("pin", try capture.pinSubmission(pinToken: request.pinToken))
                } catch let problem as GatewayAPIError
                    where problem.code == .incorrectPIN
                    && attempts < Self.pinAttempts
                {
                    continue
                }
            }
            return answer
        } catch let error as PaymentCardReaderSession.ReadError {
            await forwarder.drain(expecting: .pinEntryCompleted)
            return await fail(error.errorName, error.errorDescription)
        } catch let problem as GatewayAPIError {
            // The gateway ended the command with this problem already.
            var ended = command
            ended.status = .failed
            ended.result = ReaderCommandResult(failure: .init(code: "\(problem.code)", message: problem.message))
            return ended
        } catch {
            return await fail("readerError", "The reader could not finish the command.")
        }
    }

    /// The card's read, and the loyalty pass read in the same tap when a payment asks for one.
    private func read() async throws -> (PaymentCardReadResult, ReaderLoyaltyResult?) {
        guard let currency = Currency(alphabeticCode: command.currency) else {
            throw PaymentCardReaderSession.ReadError.invalidCurrencyCode
        }
        switch command.type {
        case .payment, .refund, .loyalty:
            let amount = Amount(minorUnits: command.amount ?? 0, currency: currency)
            let request = PaymentCardTransactionRequest(
                amount: amount.decimalValue, currencyCode: command.currency,
                for: command.type == .refund ? .refund : .purchase)
            guard command.type == .payment, command.loyaltyPasses != nil else {
                return (try await session.readPaymentCard(request), nil)
            }
            let (payment, passes) = try await session.readPaymentCard(
                request, vasRequest: try vasRequest(), stopOnVASResult: false)
            guard let payment else { throw PaymentCardReaderSession.ReadError.cardReadFailed }
            return (payment, passes.map(loyaltyResult))
        case .verification:
            let reason = command.verificationReason.flatMap {
                PaymentCardVerificationRequest.Reason(rawValue: $0.rawValue)
            }
            return (
                try await session.readPaymentCard(
                    PaymentCardVerificationRequest(currencyCode: command.currency, for: reason ?? .other)), nil
            )
        }
    }

    private func vasRequest() throws -> VASRequest {
        VASRequest(
            vasMerchants: (command.loyaltyPasses ?? []).map { VASRequest.Merchant(id: $0) },
            localizedVASType: "Loyalty")
    }

    /// The phone's answer for the merchant's passes: the first entry, its member id opened with the merchant's keys
    /// when the reader holds them.
    private func loyaltyResult(_ passes: VASReadResult) -> ReaderLoyaltyResult {
        guard let entry = passes.entries.first else {
            return ReaderLoyaltyResult(
                passTypeIdentifier: command.loyaltyPasses?.first ?? "", status: "dataNotFound")
        }
        var memberId: String?
        if entry.status == .success, let data = entry.customerVASData, let keys = loyaltyKeys {
            memberId = try? keys.decrypt(data, passTypeIdentifier: entry.id, now: Date()).message
        }
        return ReaderLoyaltyResult(
            passTypeIdentifier: entry.id, status: "\(entry.status)", memberId: memberId)
    }

    private func fail(_ code: String, _ message: String) async -> ReaderCommand? {
        try? await post("failure", ReaderFailureReport(code: code, message: message))
    }

    private func post(_ action: String, _ body: some Encodable) async throws -> ReaderCommand {
        let response = try await transport.send(
            GatewayRequest(
                method: .post, path: "/v1/reader/commands/\(command.id)/\(action)", bearer: bearer,
                body: try JSONEncoder.gatewayAPI.encode(body)))
        guard response.status == 200 else {
            let problem = try await ServerDrivenReader.decode(Problem.self, response)
            throw problem.error
        }
        return try await ServerDrivenReader.decode(ReaderCommand.self, response)
    }

    /// The gateway's name for an SDK event the point of sale shows; nil for the rest.
    static func kind(of event: PaymentCardReader.Event) -> ReaderEvent.Kind? {
        switch event {
        case .readyForTap: .readyForTap
        case .cardDetected: .cardDetected
        case .removeCard: .removeCard
        case .readRetry: .readRetry
        case .pinEntryRequested: .pinEntryRequested
        case .pinEntryCompleted: .pinEntryCompleted
        case .readCompleted: .readCompleted
        case .readNotCompleted: .readNotCompleted
        default: nil
        }
    }
}

/// Sends the SDK's events to the gateway in order, and lets the command wait until those so far are sent (so the
/// point of sale sees "read completed" before "authorizing").
actor EventForwarder {
    private let command: String
    private let transport: any GatewayTransport
    private let bearer: String
    private var sending: Task<Void, Never>?
    private var handedOver: [ReaderEvent.Kind] = []

    init(command: String, transport: any GatewayTransport, bearer: String) {
        self.command = command
        self.transport = transport
        self.bearer = bearer
    }

    func send(_ kind: ReaderEvent.Kind) {
        handedOver.append(kind)
        let previous = sending
        let (transport, path, bearer) = (transport, "/v1/reader/commands/\(command)/events", bearer)
        sending = Task {
            await previous?.value
            guard let body = try? JSONEncoder.gatewayAPI.encode(ReaderEventReport(type: kind)) else { return }
            _ = try? await transport.send(GatewayRequest(method: .post, path: path, bearer: bearer, body: body))
        }
    }

    /// Waits until `kind` was handed over (the SDK's events arrive on their own task; 200 ms at most), then until
    /// every event handed over so far was sent.
    func drain(expecting kind: ReaderEvent.Kind) async {
        for _ in 0..<200 where !handedOver.contains(kind) {
            try? await Task.sleep(for: .milliseconds(1))
        }
        handedOver.removeAll()
        await sending?.value
    }
}
