import CardEmulator
import EMV
import ISO8583
import Issuer
import ReaderKernel
import SmartCard
import Testing

@Suite("Robustness")
struct RobustnessTests {
    @Test("truncated, garbled and odd inputs get an answer, never a crash, and one ATC approves at most once")
    func hostileRequests() async throws {
        let host = try IssuerFixture.host()
        let card = try #require(TestCards.card(.approve, .visa))
        let data = try await IssuerFixture.tap(try IssuerFixture.channel(card))
        let request = try IssuerFixture.authorizationRequest(data)
        var variants: [ISO8583Message] = []
        for length in 0..<data.iccData.count {
            var truncated = request
            truncated.setICCData(Array(data.iccData.prefix(length)))
            variants.append(truncated)
        }
        var generator = SeededGenerator(seed: 0x1550)
        for _ in 0..<200 {
            var garbled = request
            var icc = data.iccData
            icc[Int.random(in: 0..<icc.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            garbled.setICCData(icc)
            variants.append(garbled)
        }
        for (field, value) in [
            (ISO8583Field.amount, ISO8583FieldValue.text("-00000001000")), (.amount, "99999999999999999999999"),
            (.currencyCode, "EUR"), (.expirationDate, "1313"), (.expirationDate, "30"), (.cardSequenceNumber, ""),
            (.pan, "476173900101011"), (.pinBlock, .binary([])), (.iccData, .text("not hex")),
            (.systemTraceAuditNumber, ""),
        ] {
            var odd = request
            odd[field] = value
            variants.append(odd)
        }
        var approvals = 0
        for variant in variants {
            let response = await host.handle(variant, at: IssuerFixture.transactionDate)
            #expect(response?.mti == .authorizationResponse)
            // A changed byte outside what the ARQC covers (9F33, 9F34, 9F6E, ...) may still be approved, once.
            if response?.responseCode == .approved { approvals += 1 }
        }
        let original = await host.handle(request, at: IssuerFixture.transactionDate)?.responseCode
        #expect(original == (approvals == 0 ? .approved : .cryptogramReplayed))
        #expect(approvals <= 1)
    }

    @Test("a reversal advice (0420) is answered with 0430")
    func reversalAdvice() async throws {
        let host = try IssuerFixture.host()
        let card = try #require(TestCards.card(.approve, .mastercard))
        let request = try IssuerFixture.authorizationRequest(try await IssuerFixture.tap(try IssuerFixture.channel(card)))
        #expect(await host.handle(request, at: IssuerFixture.transactionDate)?.responseCode == .approved)
        var advice = try IssuerFixture.reversal(of: request)
        advice.mti = .reversalAdvice
        let response = await host.handle(advice, at: IssuerFixture.transactionDate)
        #expect(response?.mti == .reversalAdviceResponse)
        #expect(response?.responseCode == .approved)
    }

    @Test("generated keys are fresh and work")
    func generatedKeys() throws {
        let first = IssuerKeys.generate(masterKeys: [])
        let second = IssuerKeys.generate(masterKeys: [])
        let pan = try PAN(try #require(TestCards.all.first).pan)
        #expect(first.keyedHash(of: pan) != second.keyedHash(of: pan))
        let account = try first.openAccount(
            pan: pan, pin: nil, expiry: try ExpiryDate(year: 2030, month: 12), currency: .eur, availableBalance: 0)
        #expect(try first.pan(of: account) == pan)
        #expect(throws: IssuerError.unreadableAccount) { try second.pan(of: account) }
    }

    /// SplitMix64: deterministic garbling.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
