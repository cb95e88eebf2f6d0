import CardEmulator
import EMV
import Foundation
import ISO8583
import Issuer
import SmartCard
import Testing

@Suite("Mastercard wallet transaction data: set by the wallet, carried in the IAD from offset 18, seen by the issuer")
struct WalletTransactionDataTests {
    @Test(
        "the issuer records exactly the bytes the wallet set, and the ARQC still verifies",
        arguments: [
            [UInt8](repeating: 0xA5, count: 14), [0x01], Array(UInt8(0x10)...0x1A), [],
        ])
    func carried(data: [UInt8]) async throws {
        let fixture = try DigitizationFixture()
        let card = try await fixture.digitize(.approve, .mastercard)
        let channel = try DigitizationFixture.channel(card)
        try await channel.withApplet { (applet) throws(CardEmulatorError) in try applet.setWalletTransactionData(data) }
        let (request, response) = try await DigitizedCardPaymentTests.pay(fixture, channel)
        let iad = try #require(try request.iccData()?.first(.issuerApplicationData)).value
        #expect(iad.count == 18 + data.count)
        #expect(Array(iad.dropFirst(18)) == data)
        #expect(response.responseCode == .approved)
        let reference = AuthorizationReference(
            systemTraceAuditNumber: try #require(request[.systemTraceAuditNumber]?.text),
            retrievalReferenceNumber: try #require(request[.retrievalReferenceNumber]?.text),
            terminalID: try #require(request[.terminalID]?.text))
        let record = try #require(try await fixture.repository.authorization(reference))
        #expect(record.walletTransactionData == (data.isEmpty ? nil : data))
    }

    @Test("the data stays on the card for the next payments until the wallet changes it")
    func persists() async throws {
        let fixture = try DigitizationFixture()
        let card = try await fixture.digitize(.approve, .mastercard)
        let channel = try DigitizationFixture.channel(card)
        try await channel.withApplet { (applet) throws(CardEmulatorError) in
            try applet.setWalletTransactionData(Array("loyalty-42".utf8))
        }
        for stan in 1...2 {
            let (request, response) = try await DigitizedCardPaymentTests.pay(fixture, channel, stan: stan)
            #expect(response.responseCode == .approved)
            let reference = AuthorizationReference(
                systemTraceAuditNumber: try #require(request[.systemTraceAuditNumber]?.text),
                retrievalReferenceNumber: try #require(request[.retrievalReferenceNumber]?.text),
                terminalID: "TERM0001")
            #expect(
                try await fixture.repository.authorization(reference)?.walletTransactionData == Array("loyalty-42".utf8)
            )
        }
    }

    @Test("more than 14 bytes, or any on a Visa card, is refused and leaves the data as it was")
    func refused() throws {
        var mastercard = try CardProfile.mastercardTest.personalize()
        try mastercard.setWalletTransactionData([0x01, 0x02])
        #expect(throws: CardEmulatorError.invalidWalletTransactionData) {
            try mastercard.setWalletTransactionData([UInt8](repeating: 0, count: 15))
        }
        #expect(mastercard.walletTransactionData == [0x01, 0x02])
        var visa = try CardProfile.visaTest.personalize()
        #expect(throws: CardEmulatorError.invalidWalletTransactionData) { try visa.setWalletTransactionData([0x01]) }
        try visa.setWalletTransactionData([])
        #expect(visa.walletTransactionData.isEmpty)
    }
}
