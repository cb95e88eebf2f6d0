import EMV
import Foundation
import Gateway
import ISO8583
import Issuer
import NIOCore
import Testing

@Suite("ISO 8583 over TCP: IssuerServer and TCPIssuerLink")
struct TCPIssuerLinkTests {
    @Test("a test card tapped on the loopback is approved over TCP, with an approval code and an ARPC")
    func approve() async throws {
        let card = try #require(TestCards.card(.approve, .visa))
        let request = try await LinkFixture.request(card)
        let response = try await LiveIssuer.withServerAndLink(try LinkFixture.host()) { _, link in
            try await link.send(request, timeout: .seconds(10))
        }
        #expect(response.mti == .authorizationResponse)
        let answer = try AuthorizationResponse(response)
        #expect(answer.isApproved)
        #expect(answer.approvalCode?.utf8.count == 6)
        #expect(answer.issuerAuthenticationData?.isEmpty == false)
    }

    @Test(
        "each declining test card gets its documented response code over TCP",
        arguments: TestCards.all.filter { ![.approve, .issuerTimeout].contains($0.behaviour) })
    func decline(card: TestCard) async throws {
        let request = try await LinkFixture.request(card)
        let answer = try await LiveIssuer.withServerAndLink(try LinkFixture.host()) { _, link in
            try AuthorizationResponse(try await link.send(request, timeout: .seconds(10)))
        }
        #expect(!answer.isApproved)
        #expect(answer.responseCode == card.behaviour.responseCode)
        #expect(answer.approvalCode == nil)
    }

    @Test("the issuer-timeout card gets no answer: timedOut after the timeout, and the link keeps serving")
    func issuerTimeout() async throws {
        let silent = try #require(TestCards.card(.issuerTimeout, .mastercard))
        let request = try await LinkFixture.request(silent)
        try await LiveIssuer.withServerAndLink(try LinkFixture.host()) { _, link in
            // Connected first, so the short timeout runs on a written request.
            let before = try await link.send(LiveIssuer.echo(stan: 1), timeout: .seconds(20))
            #expect(before[.responseCode] == "40")
            await #expect(throws: IssuerLinkError.timedOut) {
                try await link.send(request, timeout: .milliseconds(300))
            }
            #expect(link.requestsInFlight == 0)
            let after = try await link.send(LiveIssuer.echo(stan: 2), timeout: .seconds(20))
            #expect(after[.responseCode] == "40")
        }
    }

    @Test("50 concurrent requests on one connection each get their own answer")
    func concurrentRequests() async throws {
        // Network management requests: the host answers each at once (40), echoing STAN, RRN, terminal and amount.
        let requests = (1...50).map { stan in
            var request = LiveIssuer.echo(stan: stan, terminal: "TERM\(String(format: "%04d", stan % 7))")
            request[.amount] = .text(String(format: "%012d", stan * 100))
            return request
        }
        let responses = try await LiveIssuer.withServerAndLink(try LinkFixture.host(), connections: 1) { _, link in
            try await withThrowingTaskGroup(of: (Int, ISO8583Message).self) { group in
                for (index, request) in requests.enumerated() {
                    group.addTask { (index, try await link.send(request, timeout: .seconds(20))) }
                }
                var responses = [ISO8583Message?](repeating: nil, count: requests.count)
                for try await (index, response) in group { responses[index] = response }
                return responses
            }
        }
        for (request, response) in zip(requests, responses) {
            let response = try #require(response)
            #expect(response.mti == .networkManagementResponse)
            for field: ISO8583Field in [.systemTraceAuditNumber, .retrievalReferenceNumber, .terminalID, .amount] {
                #expect(response[field] == request[field])
            }
        }
    }

    @Test("a 0400 over TCP reverses an approval: 0410 00 and the balance restored, once")
    func reversal() async throws {
        let card = try #require(TestCards.card(.approve, .visa))
        let request = try await LinkFixture.request(card, minorUnits: 2_500, stan: 42)
        let host = try LinkFixture.host()
        let keyedPAN = host.keys.keyedHash(of: try PAN(card.pan))
        try await LiveIssuer.withServerAndLink(host) { _, link in
            #expect(try AuthorizationResponse(try await link.send(request, timeout: .seconds(10))).isApproved)
            #expect(try await host.repository.account(keyedPAN)?.availableBalance == TestCards.balance - 2_500)
            let reversal = try AuthorizationRequest.reversal(of: request)
            for _ in 0..<2 {
                let response = try await link.send(reversal, timeout: .seconds(10))
                #expect(response.mti == .reversalResponse)
                #expect(try AuthorizationResponse(response).responseCode == .approved)
                #expect(try await host.repository.account(keyedPAN)?.availableBalance == TestCards.balance)
            }
        }
    }

    @Test("card data never reaches the logs of the server or the link")
    func noCardDataInLogs() async throws {
        let cards = try [TestCards.card(.approve, .visa), TestCards.card(.issuerTimeout, .visa)].map {
            try #require($0)
        }
        var requests: [ISO8583Message] = []
        for (index, card) in cards.enumerated() {
            requests.append(try await LinkFixture.request(card, stan: 900 + index))
        }
        try await LiveIssuer.withServerAndLink(try LinkFixture.host()) { server, link in
            for request in requests {
                _ = try? await link.send(request, timeout: .milliseconds(300))
            }
            // A frame that does not decode, with a PAN inside: logged by error code only.
            let connection = try await LiveIssuer.rawConnection(port: try await server.port)
            try await connection.executeThenClose { _, outbound in
                try await outbound.write(ByteBuffer(bytes: [0x00, 0x14] + Array("0100\(cards[0].pan)".utf8)))
            }
            _ = try await link.send(LiveIssuer.echo(stan: 7), timeout: .seconds(10))
        }
        let logs = LiveIssuer.logs.text
        for request in requests {
            for field: ISO8583Field in [.pan, .track2] {
                let value = try #require(request[field]?.text)
                #expect(!logs.contains(value))
            }
            let icc = try #require(request[.iccData]?.bytes)
            #expect(!logs.contains(icc.hexString))
        }
    }
}
