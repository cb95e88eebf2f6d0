import CardEmulator
import ContactlessTesting
import EMV
import Foundation
import GatewayAPI
import ISO8583
import Issuer
import SmartCard
import Testing
import TestMode

/// The issuer host's behaviours with its accounts in SQL: the test cards tapped on the loopback, their 0100s answered
/// by an ``IssuerHost`` over ``SQLIssuerRepository``, on each database.
@Suite("Storage: the issuer host over SQL")
struct IssuerHostOnSQLTests {
    /// The shipped profiles' issuer master keys for the test BIN ranges; fresh data and PIN keys.
    static func keys() throws -> IssuerKeys {
        func masterKeys(_ profile: CardProfile) throws -> IssuerMasterKeys {
            let keys = profile.issuerMasterKeys
            return try IssuerMasterKeys(ac: keys.ac.bytes, smi: keys.smi.bytes, smc: keys.smc.bytes)
        }
        return IssuerKeys.generate(masterKeys: [
            .init(prefix: TestCards.visaPrefix, keys: try masterKeys(CardProfile.visaTest)),
            .init(prefix: TestCards.mastercardPrefix, keys: try masterKeys(CardProfile.mastercardTest)),
        ])
    }

    /// A host over a fresh repository holding the test cards' accounts.
    static func withHost(_ kind: TestDatabases.Kind, _ body: (IssuerHost) async throws -> Void) async throws {
        try await TestDatabases.with(kind, migrating: TestDatabases.issuer) { database in
            let keys = try keys()
            let repository = SQLIssuerRepository(database: database)
            try await TestCards.seed(repository, keys: keys)
            try await body(IssuerHost(keys: keys, repository: repository))
        }
    }

    static func tapper(_ card: TestCard) throws -> TestCardTapper {
        try TestCardTapper(pan: card.pan, scheme: card.scheme == .visa ? .visa : .mastercard)
    }

    /// A tap's 0100 for `minorUnits` EUR cents with STAN and RRN from `stan`.
    static func request(_ tapper: TestCardTapper, minorUnits: Int, stan: Int) async throws -> ISO8583Message {
        let data = try await tapper.tap(amount: Amount(minorUnits: minorUnits, currency: .eur))
        let digits = String(String(1_000_000 + stan).dropFirst())
        return try AuthorizationRequest(
            card: data, amount: minorUnits, currency: .eur, systemTraceAuditNumber: stan,
            retrievalReferenceNumber: "000000" + digits, terminalID: "TERM0001", merchantID: "MERCHANT0000001",
            transmissionDate: Date()
        ).message()
    }

    static func code(_ response: ISO8583Message?) -> ResponseCode? {
        response?[.responseCode]?.text.map(ResponseCode.init(rawValue:))
    }

    @Test("every test card answers as documented", arguments: TestDatabases.kinds)
    func testCards(_ kind: TestDatabases.Kind) async throws {
        try await Self.withHost(kind) { host in
            for (index, card) in TestCards.all.enumerated() {
                let request = try await Self.request(try Self.tapper(card), minorUnits: 1_000, stan: index + 1)
                let response = await host.handle(request, at: Date())
                // Without a PIN block the online-PIN cards ask for one; the issuer-timeout cards stay silent.
                let expected = card.behaviour == .incorrectPIN ? ResponseCode.pinRequired : card.behaviour.responseCode
                #expect(Self.code(response) == expected, "\(card.behaviour) \(card.scheme)")
            }
        }
    }

    @Test(
        "digitization and a digitized Mastercard's payment over SQL: store, vault, funding account, wallet data",
        arguments: TestDatabases.kinds)
    func digitizedCard(_ kind: TestDatabases.Kind) async throws {
        try await TestDatabases.with(kind, migrating: TestDatabases.issuer) { database in
            let keys = try IssuerKeys.test
            let repository = SQLIssuerRepository(database: database)
            try await TestCards.seed(repository, keys: keys)
            let host = IssuerHost(keys: keys, repository: repository)
            let now = Date()
            let outbox = OneTimeCodeOutbox()
            // The SQL repository is the vault's and the digitization service's store too.
            let service = DigitizationService(
                vault: try #require(host.tokenVault), store: repository, codes: outbox, clock: { now })
            let funding = try #require(TestCards.card(.approve, .mastercard))
            let eligibility = try await service.checkEligibility(
                EligibilityRequest(
                    fundingPAN: try PAN(funding.pan), expiry: try ExpiryDate(year: 2030, month: 12), walletID: "wallet",
                    deviceID: "device"))
            let pending = try await service.digitize(
                eligibilityID: eligibility.eligibilityID, acceptedTermsID: eligibility.termsAndConditions.id)
            let code = try #require(await outbox.lastCode(for: pending.digitizationID))
            await #expect(throws: IssuerError.incorrectCode) {
                try await service.verifyIdentity(
                    digitizationID: pending.digitizationID, code: code == "000000" ? "000001" : "000000")
            }
            // The right code five times at once: the locked row lets one provision.
            let cards = await withTaskGroup(of: DigitizedCard?.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        try? await service.verifyIdentity(digitizationID: pending.digitizationID, code: code)
                    }
                }
                return await group.reduce(into: [DigitizedCard]()) { if let card = $1 { $0.append(card) } }
            }
            #expect(cards.count == 1)
            let card = try #require(cards.first)
            #expect(try await service.replenish(tokenID: card.tokenID, count: 3).map(\.atc) == [11, 12, 13])
            #expect(try await service.replenish(tokenID: card.tokenID, count: 1).map(\.atc) == [14])
            var applet = try CardProfile.mastercardTest
                .digitized(pan: card.dpan, expiry: card.expiry, panSequenceNumber: card.panSequenceNumber)
                .personalize(
                    limitedUseKeys: card.paymentKeys.map {
                        LimitedUseKey(atc: $0.atc, sessionKey: $0.sessionKey, validUntil: $0.validUntil)
                    })
            try applet.setWalletTransactionData(Array("sql-wallet".utf8))
            let request = try await Self.request(
                try TestCardTapper(channel: LoopbackChannel(applet: applet)), minorUnits: 700, stan: 1)
            #expect(Self.code(await host.handle(request, at: now)) == .approved)
            #expect(
                try await repository.account(keys.keyedHash(of: try PAN(funding.pan)))?.availableBalance
                    == TestCards.balance - 700)
            #expect(try await repository.token(keys.keyedHash(of: card.dpan))?.lastATC == 1)
            let reference = AuthorizationReference(
                systemTraceAuditNumber: "000001", retrievalReferenceNumber: "000000000001", terminalID: "TERM0001")
            #expect(try await repository.authorization(reference)?.walletTransactionData == Array("sql-wallet".utf8))
            #expect(Self.code(await host.handle(request, at: now)) == .cryptogramReplayed)
            try await service.setStatus(.suspended, tokenID: card.tokenID)
            await #expect(throws: IssuerError.tokenNotActive) {
                try await service.replenish(tokenID: card.tokenID, count: 1)
            }
        }
    }

    @Test("a replayed ATC is refused; a reversal restores the balance once", arguments: TestDatabases.kinds)
    func replayAndReversal(_ kind: TestDatabases.Kind) async throws {
        try await Self.withHost(kind) { host in
            let card = try #require(TestCards.card(.approve, .visa))
            let keyedPAN = host.keys.keyedHash(of: try PAN(card.pan))
            let request = try await Self.request(try Self.tapper(card), minorUnits: 2_500, stan: 1)
            #expect(Self.code(await host.handle(request, at: Date())) == .approved)
            #expect(Self.code(await host.handle(request, at: Date())) == .cryptogramReplayed)
            #expect(try await host.repository.account(keyedPAN)?.availableBalance == TestCards.balance - 2_500)
            let reversal = try AuthorizationRequest.reversal(of: request)
            for _ in 0..<2 {
                #expect(Self.code(await host.handle(reversal, at: Date())) == .approved)
                #expect(try await host.repository.account(keyedPAN)?.availableBalance == TestCards.balance)
            }
        }
    }

    @Test("20 concurrent authorizations of one card never overspend its balance", arguments: TestDatabases.kinds)
    func concurrentAuthorizations(_ kind: TestDatabases.Kind) async throws {
        try await Self.withHost(kind) { host in
            let card = try #require(TestCards.card(.insufficientFunds, .mastercard))  // 5.00 EUR
            let tapper = try Self.tapper(card)
            var requests: [ISO8583Message] = []
            for stan in 1...20 { requests.append(try await Self.request(tapper, minorUnits: 150, stan: stan)) }
            let codes = await withTaskGroup(of: ResponseCode?.self) { group in
                for request in requests { group.addTask { Self.code(await host.handle(request, at: Date())) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            // Arriving out of order, a lower ATC after a higher one is a replay (63); never more than 3 × 1.50 spent.
            let approved = codes.filter { $0 == .approved }.count
            #expect((1...3).contains(approved))
            #expect(codes.allSatisfy { [.approved, .insufficientFunds, .cryptogramReplayed].contains($0) })
            let balance = try await host.repository.account(host.keys.keyedHash(of: try PAN(card.pan)))?
                .availableBalance
            #expect(balance == TestCards.lowBalance - 150 * approved)
        }
    }
}
