import CardEmulator
import EMV
import Foundation
import GatewayAPI
import Issuer
import SmartCard
import TapToPay
import Testing
import TestMode
import ValueAddedServices

@Suite("TapToPay: loyalty passes (Apple VAS) alone and with the payment card, in one tap", .serialized)
struct LoyaltyTests {
    typealias ReadError = PaymentCardReaderSession.ReadError
    static let purchase = PaymentCardTransactionRequest(amount: 4.20, currencyCode: "EUR")
    static let otherProgram = "pass.dev.contactless.test.tea"

    static func request(_ ids: [String] = [TestLoyaltyProgram.passTypeIdentifier]) -> VASRequest {
        VASRequest(
            vasMerchants: ids.map { VASRequest.Merchant(id: $0, localizedName: "Coffee") },
            localizedVASType: "Coffee Club")
    }

    /// A member's phone: the test program's pass beside an approving Visa card, on the gateway's clock.
    static func phone(_ gateway: TestGateway) async throws
        -> (TestLoyaltyProgram, LoopbackChannel<PassAndPaymentApplet<EmulatedCard>>)
    {
        let program = try TestLoyaltyProgram()
        return (
            program, await program.phone(carrying: try gateway.card(.approve).channel, clock: gateway.clock.function)
        )
    }

    /// The member id the merchant's server decrypts from an entry.
    static func member(_ entry: VASReadResult.ReadEntry?, _ program: TestLoyaltyProgram, now: Date) throws -> String {
        let data = try #require(entry?.customerVASData)
        return try program.decryptor.decrypt(data, passTypeIdentifier: entry?.id ?? "", now: now).message
    }

    @Test(
        "readVAS: the pass's cryptogram, which only the merchant's key opens; a missing pass is an entry, not an error")
    func readVASAlone() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                let (program, phone) = try await Self.phone(gateway)
                await till.interface.tap(phone)
                let result = try await till.session.readVAS(
                    Self.request([Self.otherProgram, TestLoyaltyProgram.passTypeIdentifier]))
                try await till.events.expectRest(Till.readEvents)
                #expect(result.entries.map(\.status) == [.dataNotFound, .success])
                #expect(result.entries.map(\.id) == [Self.otherProgram, TestLoyaltyProgram.passTypeIdentifier])
                #expect(result.entries[0].customerVASData == nil)
                #expect(try Self.member(result.entries[1], program, now: gateway.clock.now) == "member-1001")
                // Nothing was paid: the card's ATC did not move.
                #expect(await phone.applet.payment.lastATC == nil)
                // Another merchant's key does not open it.
                #expect(throws: VASError.self) {
                    try TestLoyaltyProgram().decryptor.decrypt(
                        result.entries[1].customerVASData!, passTypeIdentifier: TestLoyaltyProgram.passTypeIdentifier,
                        now: gateway.clock.now)
                }
            }
        }
    }

    @Test("readVAS on a plain card: vasReadFail")
    func readVASPlainCard() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                await till.interface.tap(try gateway.card(.approve).channel)
                await #expect(throws: ReadError.vasReadFail) { try await till.session.readVAS(Self.request()) }
                try await till.events.expectRest([
                    .readyForTap, .cardDetected, .readNotCompleted, .userInterfaceDismissed,
                ])
            }
        }
    }

    @Test("pass and payment in one tap: both come back, the payment is authorized and the member id decrypted")
    func passAndPayment() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                let (program, phone) = try await Self.phone(gateway)
                await till.interface.tap(phone)
                let (payment, passes) = try await till.session.readPaymentCard(
                    Self.purchase, vasRequest: Self.request(), stopOnVASResult: false)
                try await till.events.expectRest(Till.readEvents)
                let read = try #require(payment)
                #expect(try Self.member(passes?.entries.first, program, now: gateway.clock.now) == "member-1001")
                #expect(
                    try await gateway.authorize(read, minorUnits: 420, for: till.merchant).get().status == .succeeded)
            }
        }
    }

    @Test("stopOnVASResult: a pass ends the tap with no payment; without a matching pass the payment goes on")
    func stopOnVASResult() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                let (program, phone) = try await Self.phone(gateway)
                await till.interface.tap(phone)
                let (stopped, passes) = try await till.session.readPaymentCard(
                    Self.purchase, vasRequest: Self.request(), stopOnVASResult: true)
                try await till.events.expectNext(Till.readEvents)
                #expect(stopped == nil)
                #expect(passes?.entries.map(\.status) == [.success])
                #expect(await phone.applet.payment.lastATC == nil)

                await till.interface.tap(phone)
                let (payment, none) = try await till.session.readPaymentCard(
                    Self.purchase, vasRequest: Self.request([Self.otherProgram]), stopOnVASResult: true)
                try await till.events.expectRest(Till.readEvents)
                #expect(payment != nil)
                #expect(none?.entries.map(\.status) == [.dataNotFound])
            }
        }
    }

    @Test("a plain card with a VAS request pays as usual, with no VAS result")
    func plainCardPays() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                await till.interface.tap(try gateway.card(.approve).channel)
                let (payment, passes) = try await till.session.readPaymentCard(
                    Self.purchase, vasRequest: Self.request(), stopOnVASResult: false)
                #expect(payment != nil)
                #expect(passes == nil)
            }
        }
    }

    @Test("a phone leaving the field during the VAS step: readRetry, then the next tap reads both")
    func retryDuringVAS() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                let (program, phone) = try await Self.phone(gateway)
                await phone.setFaults(FaultPlan(faults: [.cardRemoved(afterCommands: 1)]))
                await till.interface.tap(phone)
                async let reading = till.session.readPaymentCard(
                    Self.purchase, vasRequest: Self.request(), stopOnVASResult: false)
                try await till.events.expectNext([.readyForTap, .cardDetected, .readRetry])
                await till.interface.tap(phone)
                let (payment, passes) = try await reading
                #expect(payment != nil)
                #expect(try Self.member(passes?.entries.first, program, now: gateway.clock.now) == "member-1001")
            }
        }
    }

    @Test("bad VAS requests are refused before any tap")
    func badRequests() async throws {
        try await TestGateway.with { gateway in
            try await gateway.withTill { till in
                let session = till.session
                let cases: [(VASRequest, ReadError)] = [
                    (VASRequest(), .invalidVASMerchants("the request names no merchant")),
                    (Self.request(["pass.a", "pass.a"]), .invalidVASMerchants("a merchant id is repeated")),
                    (Self.request([""]), .invalidVASMerchants("a merchant id is empty")),
                    (
                        VASRequest(vasMerchants: [.init(id: "pass.a", url: nil, shouldSendURLOnly: true)]),
                        .invalidVASRequestParameters("merchant pass.a sends its URL only but has none")
                    ),
                    (
                        VASRequest(vasMerchants: [.init(id: "pass.a", url: URL(string: "http://example.com"))]),
                        .invalidVASRequestParameters("merchant pass.a's URL is not https")
                    ),
                ]
                for (request, error) in cases {
                    await #expect(throws: error) { try await session.readVAS(request) }
                    await #expect(throws: error) {
                        try await session.readPaymentCard(Self.purchase, vasRequest: request, stopOnVASResult: false)
                    }
                }
                #expect(till.interface.pendingTaps == 0)
            }
        }
    }
}
