import CardEmulator
import EMV
import ISO8583
import Issuer
import ReaderKernel
import SmartCard
import Testing

@Suite("ARQC, ATC and ARPC")
struct CryptogramTests {
    @Test("the ARPC in the 0110 verifies as the card checks it", arguments: TestCard.Scheme.allCases)
    func arpcVerifies(scheme: TestCard.Scheme) async throws {
        for behaviour in [TestCard.Behaviour.approve, .lost] {
            let card = try #require(TestCards.card(behaviour, scheme))
            let data = try await IssuerFixture.tap(try IssuerFixture.channel(card))
            let response = try #require(
                await IssuerFixture.host().handle(
                    try IssuerFixture.authorizationRequest(data), at: IssuerFixture.transactionDate))
            let issuerData = try #require(response.iccData()?.first(.issuerAuthenticationData)).value
            let profile = try IssuerFixture.profile(card)
            let cardSide = CardCryptograms(
                version: try profile.resolvedCryptogramVersion(), iccMasterKeys: try profile.iccMasterKeys())
            let arqc = try #require(data.iccValue(.applicationCryptogram))
            let atc = try #require(data.iccValue(.applicationTransactionCounter))
            switch cardSide.version.arpcMethod {
            case .method1:
                #expect(issuerData.count == 10)
                let arc = Array(issuerData.suffix(2))
                #expect(arc == Array(try #require(response.responseCode).rawValue.utf8))
                #expect(
                    try cardSide.verifyARPC(Array(issuerData.prefix(8)), arqc: arqc, atc: atc, responseCode: arc))
            case .method2:
                #expect(issuerData.count == 8)
                let csu = Array(issuerData.suffix(4))
                #expect(csu == [0x00, behaviour == .approve ? 0x80 : 0x00, 0x00, 0x00])
                #expect(
                    try cardSide.verifyARPC(Array(issuerData.prefix(4)), arqc: arqc, atc: atc, cardStatusUpdate: csu))
            }
        }
    }

    @Test("a tampered ARQC, amount in field 55, or field 4 is declined with 88", arguments: TestCard.Scheme.allCases)
    func tampering(scheme: TestCard.Scheme) async throws {
        let card = try #require(TestCards.card(.approve, scheme))
        let host = try IssuerFixture.host()
        let data = try await IssuerFixture.tap(try IssuerFixture.channel(card))
        let request = try IssuerFixture.authorizationRequest(data)

        for tag in [EMV.Tag.applicationCryptogram, .amountAuthorised, .unpredictableNumber] {
            var tampered = request
            tampered.setICCData(try Self.flippingLastByte(of: tag, in: data.iccData))
            let response = await host.handle(tampered, at: IssuerFixture.transactionDate)
            #expect(response?.responseCode == .cryptogramFailure, "\(tag)")
            #expect(response?[.iccData] == nil, "no ARPC for a cryptogram that does not verify")
        }
        var otherAmount = request
        otherAmount[.amount] = "000000000999"
        #expect(await host.handle(otherAmount, at: IssuerFixture.transactionDate)?.responseCode == .cryptogramFailure)
        // None of those touched the account: the genuine request still goes through.
        #expect(await host.handle(request, at: IssuerFixture.transactionDate)?.responseCode == .approved)
    }

    @Test("an ATC not above the last one is refused as a replay", arguments: TestCard.Scheme.allCases)
    func replay(scheme: TestCard.Scheme) async throws {
        let card = try #require(TestCards.card(.approve, scheme))
        let host = try IssuerFixture.host()
        let channel = try IssuerFixture.channel(card)
        let first = try IssuerFixture.authorizationRequest(try await IssuerFixture.tap(channel), stan: 1)
        let second = try IssuerFixture.authorizationRequest(try await IssuerFixture.tap(channel), stan: 2)

        #expect(await host.handle(second, at: IssuerFixture.transactionDate)?.responseCode == .approved)
        // The same request again, and an older ATC that was never seen: both replays.
        #expect(await host.handle(second, at: IssuerFixture.transactionDate)?.responseCode == .cryptogramReplayed)
        #expect(await host.handle(first, at: IssuerFixture.transactionDate)?.responseCode == .cryptogramReplayed)
        #expect(ResponseCode.cryptogramReplayed.rawValue == "63")
        #expect(AuthorizationResult.cryptogramReplayed.responseCode == .cryptogramReplayed)
        // A fresh tap still works.
        let third = try IssuerFixture.authorizationRequest(try await IssuerFixture.tap(channel), stan: 3)
        #expect(await host.handle(third, at: IssuerFixture.transactionDate)?.responseCode == .approved)
    }

    @Test("a declined request still spends its ATC")
    func declinedSpendsATC() async throws {
        let card = try #require(TestCards.card(.insufficientFunds, .visa))
        let host = try IssuerFixture.host()
        let data = try await IssuerFixture.tap(try IssuerFixture.channel(card))
        let request = try IssuerFixture.authorizationRequest(data, minorUnits: 1_000)
        #expect(await host.handle(request, at: IssuerFixture.transactionDate)?.responseCode == .insufficientFunds)
        #expect(await host.handle(request, at: IssuerFixture.transactionDate)?.responseCode == .cryptogramReplayed)
    }

    @Test("a card outside every BIN range gets 96, an unknown card in a range 14")
    func unknownCards() async throws {
        let keys = try IssuerFixture.keys()
        let card = try #require(TestCards.card(.approve, .visa))
        let data = try await IssuerFixture.tap(try IssuerFixture.channel(card))
        let empty = IssuerHost(keys: keys, repository: InMemoryIssuerRepository())
        let request = try IssuerFixture.authorizationRequest(data)
        #expect(await empty.handle(request, at: IssuerFixture.transactionDate)?.responseCode == .invalidCardNumber)

        let noRanges = try IssuerKeys(
            masterKeys: [], panHashKey: Array(repeating: 1, count: 32),
            panEncryptionKey: Array(repeating: 2, count: 32),
            pinVerificationKey: Array(repeating: 3, count: 32), zonePINKey: Array(repeating: 4, count: 16),
            pinEncryptionKey: Array(repeating: 5, count: 16))
        let host = IssuerHost(keys: noRanges, repository: try TestCards.repository(keys: noRanges))
        #expect(await host.handle(request, at: IssuerFixture.transactionDate)?.responseCode == .systemMalfunction)
    }

    /// The ICC data with the last byte of `tag`'s value flipped.
    static func flippingLastByte(of tag: EMV.Tag, in iccData: [UInt8]) throws -> [UInt8] {
        var serializer = TLV.Serializer()
        for node in try TLV.parse(iccData) {
            var value = Array(node.value)
            if node.tag == tag, !value.isEmpty { value[value.count - 1] ^= 0x01 }
            try serializer.append(tag: node.tag, value: value)
        }
        return serializer.bytes
    }
}
