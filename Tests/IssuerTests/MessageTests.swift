import CardEmulator
import EMV
import Foundation
import ISO8583
import Issuer
import ReaderKernel
import SmartCard
import Testing

@Suite("Messages, accounts and secrecy")
struct MessageTests {
    @Test("the 0100 and 0110 round-trip through the contactless specification", arguments: TestCard.Scheme.allCases)
    func roundTrip(scheme: TestCard.Scheme) async throws {
        let card = try #require(TestCards.card(.approve, scheme))
        let data = try await IssuerFixture.tap(try IssuerFixture.channel(card))
        let request = try IssuerFixture.authorizationRequest(data)
        let decodedRequest = try ISO8583Message(
            decoding: try request.encoded(using: .contactless), using: .contactless)
        #expect(decodedRequest.fieldNumbers == [2, 3, 4, 7, 11, 12, 14, 22, 23, 35, 37, 41, 42, 49, 55])
        let response = try #require(
            await IssuerFixture.host().handle(decodedRequest, at: IssuerFixture.transactionDate))
        let decodedResponse = try ISO8583Message(
            decoding: try response.encoded(using: .contactless), using: .contactless)
        #expect(decodedResponse == response)
        #expect(decodedResponse.fieldNumbers == [2, 3, 4, 7, 11, 12, 37, 38, 39, 41, 42, 49, 55])
        #expect(decodedResponse.responseCode == .approved)
        #expect(decodedResponse[.authorizationCode]?.text?.count == 6)
    }

    @Test("other MTIs: a request gets 40, a response gets no answer; missing fields get 30")
    func otherMessages() async throws {
        let host = try IssuerFixture.host()
        let echo = ISO8583Message(mti: .networkManagementRequest, fields: [11: "000001"])
        let answer = await host.handle(echo, at: IssuerFixture.transactionDate)
        #expect(answer?.mti == .networkManagementResponse)
        #expect(answer?.responseCode == .functionNotSupported)
        #expect(answer?[.systemTraceAuditNumber] == "000001")
        #expect(
            await host.handle(ISO8583Message(mti: .financialRequest), at: .now)?.responseCode == .functionNotSupported)
        #expect(await host.handle(ISO8583Message(mti: .authorizationResponse), at: .now) == nil)

        let card = try #require(TestCards.card(.approve, .visa))
        let request = try IssuerFixture.authorizationRequest(try await IssuerFixture.tap(try IssuerFixture.channel(card)))
        for field: ISO8583Field in [.pan, .processingCode, .amount, .systemTraceAuditNumber, .currencyCode, .iccData] {
            var incomplete = request
            incomplete[field] = nil
            #expect(await host.handle(incomplete, at: IssuerFixture.transactionDate)?.responseCode == .formatError)
        }
        var badPAN = request
        badPAN[.pan] = "4761739001010118"
        #expect(await host.handle(badPAN, at: IssuerFixture.transactionDate)?.responseCode == .formatError)
        var badICC = request
        badICC.setICCData([0x9F, 0x26, 0x08, 0x00])
        #expect(await host.handle(badICC, at: IssuerFixture.transactionDate)?.responseCode == .formatError)
    }

    @Test("account rules: field 14 not the account's, expired today, other currency, over the limit")
    func accountRules() async throws {
        let keys = try IssuerFixture.keys()
        let card = try #require(TestCards.card(.approve, .visa))
        let base = try TestCards.account(for: card, keys: keys)
        let channel = try IssuerFixture.channel(card)
        func answer(_ change: (inout CardAccount) -> Void, edit: (inout ISO8583Message) -> Void = { _ in })
            async throws -> ResponseCode?
        {
            var account = base
            change(&account)
            let host = IssuerHost(keys: keys, repository: try InMemoryIssuerRepository(accounts: [account]))
            var request = try IssuerFixture.authorizationRequest(try await IssuerFixture.tap(channel))
            edit(&request)
            return await host.handle(request, at: IssuerFixture.transactionDate)?.responseCode
        }
        #expect(try await answer({ _ in }) == .approved)
        #expect(try await answer({ _ in }, edit: { $0[.expirationDate] = "2912" }) == .expiredCard)
        #expect(try await answer({ $0.expiry = try! ExpiryDate(year: 2026, month: 10) }) == .expiredCard)
        #expect(try await answer({ $0.currency = .usd }) == .invalidTransaction)
        #expect(try await answer({ $0.perTransactionLimit = 999 }) == .exceedsAmountLimit)
    }

    @Test("accounts: found by keyed hash, the PAN opens only under the right key and account")
    func accounts() throws {
        let keys = try IssuerFixture.keys()
        let pan = try PAN("4761739001010119")
        let account = try keys.openAccount(
            pan: pan, pin: "1234", expiry: try ExpiryDate(year: 2030, month: 12), currency: .eur,
            availableBalance: 100)
        #expect(try keys.pan(of: account) == pan)
        #expect(account.keyedPAN == keys.keyedHash(of: pan))
        #expect(account.keyedPAN.bytes.count == 32)
        #expect(!account.encryptedPAN.hexString.contains(pan.bcd.hexString))
        #expect(account.maskedPAN == pan.masked)

        let other = try keys.openAccount(
            pan: try PAN("5413339000001513"), pin: nil, expiry: try ExpiryDate(year: 2030, month: 12), currency: .eur,
            availableBalance: 0)
        let swapped = CardAccount(
            keyedPAN: other.keyedPAN, encryptedPAN: account.encryptedPAN, maskedPAN: other.maskedPAN,
            expiry: other.expiry, currency: .eur, availableBalance: 0)
        #expect(throws: IssuerError.unreadableAccount) { try keys.pan(of: swapped) }
        #expect(throws: IssuerError.invalidPIN) { try keys.pinVerificationValue(pin: "12", pan: pan) }
        #expect(throws: IssuerError.invalidPIN) { try keys.pinVerificationValue(pin: "12a4", pan: pan) }
        #expect(throws: IssuerError.duplicateAccount) { try InMemoryIssuerRepository(accounts: [account, account]) }
        #expect(throws: IssuerError.invalidKey) { try IssuerMasterKeys(ac: [1, 2], smi: [], smc: []) }
        #expect(throws: IssuerError.invalidKey) {
            try IssuerKeys(
                masterKeys: [], panHashKey: [], panEncryptionKey: [], pinVerificationKey: [], zonePINKey: [],
                pinEncryptionKey: [])
        }
    }

    @Test("no PAN, track 2, PIN block or key in any description, dump or error")
    func nothingLeaks() async throws {
        let keys = try IssuerFixture.keys()
        let host = IssuerHost(keys: keys, repository: try TestCards.repository(keys: keys))
        var texts: [String] = []
        var secrets: [String] = []
        func describe(_ value: Any) {
            texts.append(String(describing: value))
            texts.append(String(reflecting: value))
            var dumped = ""
            dump(value, to: &dumped)
            texts.append(dumped)
        }
        for card in TestCards.all {
            let data = try await IssuerFixture.tap(try IssuerFixture.channel(card))
            let pinBlock = try IssuerFixture.format0PINBlock(TestCards.pin, pan: card.pan)
            let request = try IssuerFixture.authorizationRequest(data, pinBlock: pinBlock)
            secrets += [card.pan, try #require(data.track2).bytes.hexString, pinBlock.hexString]
            if let track2 = request[.track2]?.text { secrets.append(track2) }
            let response = await host.handle(request, at: IssuerFixture.transactionDate)
            let reversal = await host.handle(try IssuerFixture.reversal(of: request), at: IssuerFixture.transactionDate)
            describe(request)
            if let response { describe(response) }
            if let reversal { describe(reversal) }
            describe(card)
            let account = try #require(await host.repository.account(keys.keyedHash(of: data.pan)))
            describe(account)
            describe(account.keyedPAN)
        }
        for profile in [try CardProfile.visaTest, try CardProfile.mastercardTest] {
            secrets += [profile.issuerMasterKeys.ac.bytes.hexString, profile.issuerMasterKeys.smi.bytes.hexString]
        }
        secrets += [IssuerKeys.testZonePINKey.hexString, IssuerKeys.testPINEncryptionKey.hexString]
        describe(keys)
        describe(keys.masterKeys)
        let errors: [IssuerError] = [
            IssuerError(.unreadableAccount, "x"), IssuerError.invalidKey, IssuerError.storageFailed,
        ]
        do {
            _ = try IssuerKeys(
                masterKeys: [], panHashKey: [UInt8](repeating: 0x11, count: 31), panEncryptionKey: [],
                pinVerificationKey: [], zonePINKey: [], pinEncryptionKey: [])
        } catch {
            describe(error)
        }
        errors.forEach(describe)
        let all = texts.joined(separator: "\n").uppercased()
        // Counted, not matched one by one: a failing expectation would print the text it searched.
        let leaks = secrets.filter { all.contains($0.uppercased()) }.count
        #expect(leaks == 0, "secrets show up in descriptions")
        #expect(secrets.count >= TestCards.all.count * 4)
    }
}
