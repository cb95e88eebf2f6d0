import Foundation
import Gateway
import ISO8583
import Issuer
import Testing

@Suite("InProcessIssuerLink")
struct InProcessIssuerLinkTests {
    static func link(_ host: IssuerHost) -> InProcessIssuerLink {
        InProcessIssuerLink(issuer: host, sleep: { _ in })
    }

    @Test("a tapped test card is approved through the codec, like over TCP")
    func approve() async throws {
        let card = try #require(TestCards.card(.approve, .mastercard))
        let request = try await LinkFixture.request(card)
        let answer = try AuthorizationResponse(
            try await Self.link(try LinkFixture.host()).send(request, timeout: .seconds(5)))
        #expect(answer.isApproved)
        #expect(answer.issuerAuthenticationData?.isEmpty == false)
    }

    @Test("a silent host: the link waits out the timeout with its sleep and throws timedOut")
    func timeout() async throws {
        let card = try #require(TestCards.card(.issuerTimeout, .visa))
        let request = try await LinkFixture.request(card)
        let slept = Sleeps()
        let link = InProcessIssuerLink(
            issuer: try LinkFixture.host(), sleep: { await slept.append($0) })
        await #expect(throws: IssuerLinkError.timedOut) { try await link.send(request, timeout: .seconds(7)) }
        #expect(await slept.all == [.seconds(7)])
    }

    @Test("a request that does not encode is refused")
    func invalidRequest() async throws {
        var request = LiveIssuer.echo(stan: 1)
        request[.currencyCode] = "EUR"
        await #expect(throws: IssuerLinkError.invalidRequest) {
            try await Self.link(try LinkFixture.host()).send(request, timeout: .seconds(1))
        }
    }

    /// The durations a link slept.
    actor Sleeps {
        var all: [Duration] = []
        func append(_ duration: Duration) { all.append(duration) }
    }
}
