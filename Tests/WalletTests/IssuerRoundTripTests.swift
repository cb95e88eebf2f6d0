import TestMode
import CardEmulator
import ContactlessTesting
import EMV
import Foundation
import ISO8583
import Issuer
import ReaderKernel
import Testing
import Wallet

/// The wallet's payments reach the issuer host: the cryptogram of its payment keys verifies, the wallet transaction
/// data arrives, and the card's lifecycle is the token's.
@Suite struct IssuerRoundTripTests {
    /// Pays `minorUnits` with the default card through a whole session; the kernel's authorisation data.
    static func pay(_ harness: WalletHarness, _ minorUnits: Int = 1_000) async throws -> CardAuthorizationData {
        let session = harness.session()
        var events = try await SessionEvents.authenticated(session)
        try await session.startEmulation()
        let result = await harness.tap(minorUnits)
        #expect(await events.rest().last == "transactionCompleted")
        return try #require(result.outcome.authorizationData)
    }

    /// The acquirer's 0100 for the tap, answered by the issuer host.
    static func authorize(
        _ harness: WalletHarness, _ data: CardAuthorizationData, minorUnits: Int = 1_000, stan: Int = 1
    )
        async throws -> (request: ISO8583Message, response: ISO8583Message)
    {
        let request = try AuthorizationRequest(
            card: data, amount: minorUnits, currency: .eur, type: .purchase,
            systemTraceAuditNumber: stan, retrievalReferenceNumber: String(format: "%012d", stan),
            terminalID: "TERM0001", merchantID: "MERCHANT0000001", transmissionDate: harness.clock.now,
            localTimeZone: TimeZone(identifier: "UTC") ?? .current, pinBlock: nil
        ).message()
        return (request, try #require(await harness.issuer.host.handle(request, at: harness.clock.now)))
    }

    @Test(arguments: [TestCard.Scheme.visa, .mastercard])
    func theIssuerApprovesTheWalletsCryptograms(scheme: TestCard.Scheme) async throws {
        let harness = try WalletHarness()
        let card = try await harness.digitize(scheme)
        for stan in 1...2 {
            let data = try await Self.pay(harness)
            #expect(data.pan.masked == card.details.maskedDPAN)
            // What the wallet shows of the card never has the DPAN.
            for shown in [card.description, String(reflecting: card), "\(card.details)"] {
                #expect(!shown.contains(data.pan.digits))
            }
            let (_, response) = try await Self.authorize(harness, data, stan: stan)
            #expect(response[.responseCode]?.text == "00")
        }
    }

    @Test func mastercardWalletTransactionDataReachesTheIssuer() async throws {
        let harness = try WalletHarness()
        let card = try await harness.digitize(.mastercard)
        let data = Array("loyalty-0042".utf8)
        try await harness.wallet.digitalCardManager.setWalletTransactionData(data, forDigitalCardID: card.digitalCardID)
        let tap = try await Self.pay(harness)
        let iad = try #require(try TLV.parse(tap.iccData).first(.issuerApplicationData)).value
        #expect(Array(iad.dropFirst(18)) == data)
        let (request, response) = try await Self.authorize(harness, tap)
        #expect(response[.responseCode]?.text == "00")
        let reference = AuthorizationReference(
            systemTraceAuditNumber: try #require(request[.systemTraceAuditNumber]?.text),
            retrievalReferenceNumber: try #require(request[.retrievalReferenceNumber]?.text), terminalID: "TERM0001")
        #expect(await harness.issuer.repository.authorization(reference)?.walletTransactionData == data)
    }

    @Test func walletTransactionDataIsMastercardsAndAtMostFourteenBytes() async throws {
        let harness = try WalletHarness()
        let visa = try await harness.digitize(.visa)
        let mastercard = try await harness.digitize(.mastercard)
        let manager = harness.wallet.digitalCardManager
        await #expect(throws: WalletError.cardNotSupported) {
            try await manager.setWalletTransactionData([0x01], forDigitalCardID: visa.digitalCardID)
        }
        await #expect(throws: WalletError.invalidWalletTransactionData) {
            try await manager.setWalletTransactionData(
                [UInt8](repeating: 1, count: 15), forDigitalCardID: mastercard.digitalCardID)
        }
        #expect(try await manager.digitalCard(forID: mastercard.digitalCardID)?.walletTransactionData == nil)
    }

    @Test func suspendResumeAndDeleteAreTheTokensStateAtTheIssuer() async throws {
        let harness = try WalletHarness()
        let card = try await harness.digitize(.mastercard)
        let manager = harness.wallet.digitalCardManager
        let issuer = harness.issuer.digitization
        try await manager.manage(digitalCardID: card.digitalCardID, action: .suspend)
        #expect(try await issuer.status(tokenID: card.tokenID) == .suspended)
        #expect(try await manager.digitalCard(forID: card.digitalCardID)?.state == .suspended)
        try await manager.manage(digitalCardID: card.digitalCardID, action: .resume)
        #expect(try await issuer.status(tokenID: card.tokenID) == .active)
        let data = try await Self.pay(harness)
        #expect(try await Self.authorize(harness, data).response[.responseCode]?.text == "00")
        try await manager.manage(digitalCardID: card.digitalCardID, action: .delete)
        #expect(try await issuer.status(tokenID: card.tokenID) == .deleted)
        #expect(try await manager.digitalCards().isEmpty)
        #expect(try await manager.defaultCard() == nil)
        await #expect(throws: WalletError.invalidDigitalCardID) {
            try await manager.manage(digitalCardID: card.digitalCardID, action: .resume)
        }
    }
}
