import ContactlessTesting
import EMV
import Foundation
@testable import Gateway
import GatewayAPI
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Issuer
import Testing
import TestMode

/// The server-driven reader API on the wire, as a reader and a merchant's server each speak it (every exchange
/// recorded for scripts/test's check against openapi.yaml): poll, command, events, read, failure, and the problems
/// of calls out of turn.
@Suite("Reader API", .serialized)
struct ReaderAPITests {
    @Test(arguments: TestDatabases.kinds)
    func aReaderTakesACommandReportsAndHandsOverItsRead(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let reader = gateway.deviceId
            // Not polling yet: offline.
            let offline = try await gateway.post(
                "/v1/readers/\(reader)/commands",
                CreateReaderCommandRequest(type: .payment, amount: 100, currency: "EUR"),
                bearer: gateway.apiKey)
            #expect(offline.status == .conflict && offline.problem?.code == "readerOffline")

            // The reader polls: nothing to do, and it is online.
            #expect(
                try await gateway.get("/v1/reader/commands/next?wait=0", bearer: gateway.session).status == .noContent)
            let list = try await gateway.get("/v1/readers").decoded(ReaderList.self)
            #expect(list.data.first { $0.id == reader }?.online == true)

            let sent = try await gateway.post(
                "/v1/readers/\(reader)/commands",
                CreateReaderCommandRequest(type: .payment, amount: 1_250, currency: "EUR", captureMethod: .manual),
                bearer: gateway.apiKey)
            #expect(sent.status == .created)
            let command = try sent.decoded(ReaderCommand.self)
            #expect(command.status == .pending)
            let busy = try await gateway.post(
                "/v1/readers/\(reader)/commands",
                CreateReaderCommandRequest(type: .payment, amount: 1, currency: "EUR"),
                bearer: gateway.apiKey)
            #expect(busy.status == .conflict && busy.problem?.code == "readerBusy")

            // The poll hands it over; the reader reports its SDK's events, then its read.
            let instruction = try await gateway.get("/v1/reader/commands/next?wait=1", bearer: gateway.session)
                .decoded(ReaderInstruction.self)
            #expect(instruction.command?.id == command.id && instruction.command?.status == .inProgress)
            for kind in [ReaderEvent.Kind.readyForTap, .cardDetected, .readCompleted] {
                let reported = try await gateway.post(
                    "/v1/reader/commands/\(command.id)/events", ReaderEventReport(type: kind))
                #expect(reported.status == .noContent)
            }
            let gatewaysOwn = try await gateway.post(
                "/v1/reader/commands/\(command.id)/events", ReaderEventReport(type: .commandEnded))
            #expect(gatewaysOwn.status == .badRequest && gatewaysOwn.problem?.code == "invalidRequest")

            let tapper = try gateway.tapper(try #require(TestCards.card(.approve, .visa)))
            let submission = ReaderReadSubmission(cardData: try await gateway.sealedTap(tapper, minorUnits: 1_250))
            let answered = try await gateway.post("/v1/reader/commands/\(command.id)/read", submission)
            #expect(answered.status == .ok, "\(answered.text)")
            let ended = try answered.decoded(ReaderCommand.self)
            #expect(ended.status == .completed)
            #expect(ended.result?.payment?.status == .requiresCapture)
            #expect(ended.result?.payment?.captureMethod == .manual)
            // The same read again: the command has ended.
            let again = try await gateway.post("/v1/reader/commands/\(command.id)/read", submission)
            #expect(again.status == .conflict && again.problem?.code == "invalidState")

            // A read the reader could not make: the command fails with the reader's reason.
            let second = try await gateway.post(
                "/v1/readers/\(reader)/commands", CreateReaderCommandRequest(type: .verification, currency: "EUR"),
                bearer: gateway.apiKey
            ).decoded(ReaderCommand.self)
            _ = try await gateway.get("/v1/reader/commands/next?wait=1", bearer: gateway.session)
            let failed = try await gateway.post(
                "/v1/reader/commands/\(second.id)/failure",
                ReaderFailureReport(code: "cardNotSupported", message: "The card is not supported by this reader."))
            #expect(try failed.decoded(ReaderCommand.self).status == .failed)
            let nothingToCancel = try await gateway.post(
                "/v1/readers/\(reader)/cancel", [String: String](), bearer: gateway.apiKey)
            #expect(nothingToCancel.status == .conflict && nothingToCancel.problem?.code == "invalidState")

            // A loyalty read: the reader reports the pass; a card read is no answer to it.
            let loyalty = try await gateway.post(
                "/v1/readers/\(reader)/commands",
                CreateReaderCommandRequest(
                    type: .loyalty, currency: "EUR", loyaltyPasses: ["pass.dev.contactless.test.coffee"]),
                bearer: gateway.apiKey)
            #expect(loyalty.status == .created, "\(loyalty.text)")
            let loyaltyCommand = try loyalty.decoded(ReaderCommand.self)
            _ = try await gateway.get("/v1/reader/commands/next?wait=1", bearer: gateway.session)
            let notACard = try await gateway.post(
                "/v1/reader/commands/\(loyaltyCommand.id)/read",
                ReaderReadSubmission(cardData: try await gateway.sealedTap(tapper, minorUnits: 100)))
            #expect(notACard.status == .conflict && notACard.problem?.code == "invalidState")
            let member = try await gateway.post(
                "/v1/reader/commands/\(loyaltyCommand.id)/loyalty",
                ReaderLoyaltyResult(
                    passTypeIdentifier: "pass.dev.contactless.test.coffee", status: "success", memberId: "member-7"))
            let read = try member.decoded(ReaderCommand.self)
            #expect(read.status == .completed && read.result?.loyalty?.memberId == "member-7")

            // A command canceled before the reader picked it up ends at once.
            let third = try await gateway.post(
                "/v1/readers/\(reader)/commands",
                CreateReaderCommandRequest(type: .refund, amount: 200, currency: "EUR"),
                bearer: gateway.apiKey
            ).decoded(ReaderCommand.self)
            let canceled = try await gateway.post(
                "/v1/readers/\(reader)/cancel", [String: String](), bearer: gateway.apiKey)
            #expect(try canceled.decoded(ReaderCommand.self).status == .canceled)
            #expect(
                try await gateway.get("/v1/reader/commands/next?wait=0", bearer: gateway.session).status == .noContent)
            _ = third

            // Credentials: each side its own.
            #expect(try await gateway.get("/v1/readers", bearer: gateway.session).status == .unauthorized)
            #expect(try await gateway.get("/v1/reader/commands/next?wait=0").status == .unauthorized)
            let badWait = try await gateway.get("/v1/reader/commands/next?wait=60", bearer: gateway.session)
            #expect(badWait.status == .badRequest && badWait.problem?.code == "invalidRequest")
            let unknown = try await gateway.post(
                "/v1/readers/nobody/commands", CreateReaderCommandRequest(type: .payment, amount: 1, currency: "EUR"),
                bearer: gateway.apiKey)
            #expect(unknown.status == .notFound)
            // A device's first configuration shows its progress to the point of sale, stage by stage.
            _ = try await gateway.prepare(deviceId: "till-new")
            var progress: [Int] = []
            for await event in await gateway.application.readers.subscribe(
                merchantId: gateway.merchantId, readerId: "till-new", after: 0)
            {
                if event.type == .configuring, let percent = event.progress { progress.append(percent) }
                if progress.last == 100 { break }
            }
            #expect(progress == [0, 25, 50, 75, 100])
            let configured = try await gateway.get("/v1/readers").decoded(ReaderList.self)
            #expect(configured.data.first { $0.id == "till-new" }?.configuring == nil)

            // Nothing secret in the logs: the read's card data never appears.
            #expect(!gateway.logs.text.contains(try #require(TestCards.card(.approve, .visa)).pan))
        }
    }
}
