import Foundation
import GatewayAPI
import TapToPay
import Testing

@Suite("TapToPay: the PSP's answers through a scripted transport", .serialized)
struct TransportTests {
    /// A transport answering every request with the script's status and body lines.
    struct ScriptedTransport: GatewayTransport {
        var status: Int
        var lines: [String]

        func send(_ request: GatewayRequest) async throws -> GatewayResponse {
            let chunks = lines.map { Data(($0 + "\n").utf8) }
            return GatewayResponse(
                status: status,
                body: AsyncThrowingStream { continuation in
                    for chunk in chunks { continuation.yield(chunk) }
                    continuation.finish()
                })
        }
    }

    static func reader(_ transport: ScriptedTransport) -> PaymentCardReader {
        PaymentCardReader(
            environment: ReaderEnvironment(deviceID: "phone-1", gateway: transport, interface: LoopbackInterface()))
    }

    static let token = PaymentCardReader.Token(rawValue: "a.b.c")

    static func problem(_ code: GatewayAPIError.Code) throws -> String {
        String(
            decoding: try JSONEncoder.gatewayAPI.encode(Problem(GatewayAPIError(code: code, message: "scripted"))),
            as: UTF8.self)
    }

    @Test("a prepare stream that fails midway: progress so far, then prepareFailed")
    func streamFailure() async throws {
        let failure = PrepareProgress(
            progress: 25, error: Problem(GatewayAPIError(code: .internalError, message: "disk full")))
        let lines = [
            #"{"progress":0,"stage":"started"}"#, #"{"progress":25,"stage":"deviceRegistered"}"#,
            String(decoding: try failure.line().dropLast(), as: UTF8.self),
        ]
        let reader = Self.reader(ScriptedTransport(status: 200, lines: lines))
        try await EventRecorder.watch(reader) { events in
            await #expect {
                try await reader.prepare(using: Self.token)
            } throws: {
                guard case PaymentCardReaderError.prepareFailed(let why?) = $0 else { return false }
                return why.contains("internalError")
            }
            try await events.expectRest([.updateProgress(0), .updateProgress(25)])
        }
    }

    @Test("a truncated stream, a line that is not JSON, a server error: prepareFailed")
    func malformedPrepares() async throws {
        for transport in [
            ScriptedTransport(status: 200, lines: [#"{"progress":0,"stage":"started"}"#]),
            ScriptedTransport(status: 200, lines: ["not json"]),
            ScriptedTransport(status: 500, lines: [try Self.problem(.internalError)]),
            ScriptedTransport(status: 502, lines: ["<html>bad gateway</html>"]),
        ] {
            await #expect {
                try await Self.reader(transport).prepare(using: Self.token)
            } throws: {
                if case PaymentCardReaderError.prepareFailed = $0 { true } else { false }
            }
        }
    }

    @Test("a PSP that cannot check or link: accountLinkingCheckFailed, accountLinkingFailed")
    func linkFailures() async throws {
        let reader = Self.reader(ScriptedTransport(status: 503, lines: [try Self.problem(.unavailable)]))
        await #expect(throws: PaymentCardReaderError.accountLinkingCheckFailed) {
            try await reader.isAccountLinked(using: Self.token)
        }
        await #expect(throws: PaymentCardReaderError.accountLinkingFailed) {
            try await reader.linkAccount(using: Self.token)
        }
        let garbled = Self.reader(ScriptedTransport(status: 200, lines: ["{}"]))
        await #expect(throws: PaymentCardReaderError.accountLinkingCheckFailed) {
            try await garbled.isAccountLinked(using: Self.token)
        }
    }

    @Test(
        "a PSP that does not know the merchant, or refuses the credential: invalidMerchant, networkAuthenticationError")
    func merchantAndAuthentication() async throws {
        await #expect(throws: PaymentCardReaderError.invalidMerchant) {
            try await Self.reader(ScriptedTransport(status: 404, lines: [try Self.problem(.notFound)]))
                .prepare(using: Self.token)
        }
        await #expect(throws: PaymentCardReaderError.networkAuthenticationError) {
            try await Self.reader(ScriptedTransport(status: 401, lines: [try Self.problem(.unauthorized)]))
                .isAccountLinked(using: Self.token)
        }
    }

    /// A transport whose PSP cannot be reached.
    struct UnreachableTransport: GatewayTransport {
        func send(_ request: GatewayRequest) async throws -> GatewayResponse { throw CancellationError() }
    }

    @Test("no PSP: networkError")
    func unreachable() async {
        let reader = PaymentCardReader(
            environment: ReaderEnvironment(
                deviceID: "phone-1", gateway: UnreachableTransport(), interface: LoopbackInterface()))
        await #expect(throws: PaymentCardReaderError.networkError) { try await reader.prepare(using: Self.token) }
        await #expect(throws: PaymentCardReaderError.networkError) {
            try await reader.isAccountLinked(using: Self.token)
        }
    }

    @Test("errors switch by Apple's case names and describe themselves without secrets")
    func names() {
        let error: PaymentCardReaderError = .deviceBanned(nil)
        switch error {
        case .deviceBanned(let until): #expect(until == nil)
        default: Issue.record("\(error) did not match its own case")
        }
        #expect(PaymentCardReaderError.notAllowed.errorName == "notAllowed")
        #expect(PaymentCardReaderError.prepareFailed("x").errorName == "prepareFailed")
        #expect(PaymentCardReaderSession.ReadError.readCancelled.errorName == "readCancelled")
        #expect(PaymentCardReaderSession.ReadError.unknown(code: 7).errorName == "unknown")
        #expect("\(PaymentCardReaderError.notReady)" == "notReady")
        #expect(PaymentCardReaderError.notReady.errorDescription == "The reader session is not ready: prepare again.")
    }
}
