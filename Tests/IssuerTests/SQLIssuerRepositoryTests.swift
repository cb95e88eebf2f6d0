import ContactlessTesting
import EMV
import Foundation
import ISO8583
import Issuer
import Testing

@Suite("Storage: the issuer's SQL repository")
struct SQLIssuerRepositoryTests {
    static let keys = IssuerKeys.generate(masterKeys: [])
    static let date = Date(timeIntervalSince1970: 1_795_003_600)

    /// A fresh repository holding every test card's account.
    static func withTestCards(
        _ kind: TestDatabases.Kind, _ body: (SQLIssuerRepository, [CardAccount]) async throws -> Void
    ) async throws {
        try await TestDatabases.with(kind, migrating: TestDatabases.issuer) { database in
            let repository = SQLIssuerRepository(database: database)
            let accounts = try TestCards.all.map { try TestCards.account(for: $0, keys: keys) }
            for account in accounts { try await repository.insert(account) }
            try await body(repository, accounts)
        }
    }

    static func record(_ account: CardAccount, amount: Int, stan: Int) -> AuthorizationRecord {
        AuthorizationRecord(
            reference: AuthorizationReference(
                systemTraceAuditNumber: String(String(1_000_000 + stan).dropFirst()),
                retrievalReferenceNumber: String(String(1_000_000_000_000 + stan).dropFirst()), terminalID: "TERM0001"),
            keyedPAN: account.keyedPAN, amount: amount, approvalCode: "A\(stan)", date: date)
    }

    /// Approves `amount` when the balance covers it and the ATC is new, as the host decides.
    static func spend(_ amount: Int, stan: Int, atc: UInt16) -> @Sendable (inout CardAccount) -> AuthorizationDecision {
        { account in
            guard account.lastATC.map({ atc > $0 }) ?? true else {
                return AuthorizationDecision(result: .cryptogramReplayed)
            }
            account.lastATC = atc
            guard account.availableBalance >= amount else { return AuthorizationDecision(result: .insufficientFunds) }
            account.availableBalance -= amount
            return AuthorizationDecision(result: .approved, record: record(account, amount: amount, stan: stan))
        }
    }

    @Test(
        "every account field is stored and read back; a second account with one keyed PAN is refused",
        arguments: TestDatabases.kinds)
    func accounts(_ kind: TestDatabases.Kind) async throws {
        try await Self.withTestCards(kind) { repository, accounts in
            for account in accounts { #expect(try await repository.account(account.keyedPAN) == account) }
            var full = try Self.keys.openAccount(
                pan: try PAN("4000000000000002"), pin: "9876", expiry: try ExpiryDate(year: 2031, month: 7),
                currency: .jpy, availableBalance: Int.max)
            full.status = .blocked
            full.perTransactionLimit = 50_000
            full.onlinePINLimit = 0
            full.requiresStrongCustomerAuthentication = true
            full.wrongPINCount = 2
            full.pinTryLimit = 5
            full.lastATC = UInt16.max
            full.simulatesNoResponse = true
            try await repository.insert(full)
            #expect(try await repository.account(full.keyedPAN) == full)
            #expect(
                try Self.keys.pan(of: try #require(try await repository.account(full.keyedPAN))).digits
                    == "4000000000000002")
            await #expect(throws: IssuerError.duplicateAccount) { try await repository.insert(full) }
            #expect(try await repository.account(KeyedPANHash(bytes: Array(repeating: 0, count: 32))) == nil)
        }
    }

    @Test(
        "authorize stores the account's changes and the record; reverse restores the amount once",
        arguments: TestDatabases.kinds)
    func authorizeAndReverse(_ kind: TestDatabases.Kind) async throws {
        try await Self.withTestCards(kind) { repository, accounts in
            let account = accounts[0]
            let decision = try await repository.authorize(account.keyedPAN, Self.spend(1_000, stan: 7, atc: 5))
            #expect(decision?.result == .approved)
            let after = try #require(try await repository.account(account.keyedPAN))
            #expect(after.availableBalance == account.availableBalance - 1_000)
            #expect(after.lastATC == 5)
            #expect(
                try await repository.authorize(account.keyedPAN, Self.spend(1, stan: 8, atc: 5))?.result
                    == .cryptogramReplayed)
            #expect(try await repository.authorize(KeyedPANHash(bytes: [1]), Self.spend(1, stan: 9, atc: 9)) == nil)

            let reference = try #require(decision?.record).reference
            #expect(try await repository.reverse(reference, of: accounts[1].keyedPAN) == .notFound)
            guard case .reversed(let record) = try await repository.reverse(reference, of: account.keyedPAN) else {
                Issue.record("not reversed")
                return
            }
            #expect(
                record.amount == 1_000 && record.reversed && record.approvalCode == "A7" && record.date == Self.date)
            #expect(try await repository.account(account.keyedPAN)?.availableBalance == account.availableBalance)
            guard case .alreadyReversed = try await repository.reverse(reference, of: account.keyedPAN) else {
                Issue.record("reversed twice")
                return
            }
            #expect(try await repository.account(account.keyedPAN)?.availableBalance == account.availableBalance)
            let unknown = AuthorizationReference(
                systemTraceAuditNumber: "999999", retrievalReferenceNumber: "999999999999", terminalID: "TERM0001")
            #expect(try await repository.reverse(unknown, of: account.keyedPAN) == .notFound)
        }
    }

    @Test(
        "an authorization is read back by reference, with its wallet transaction data or none",
        arguments: TestDatabases.kinds)
    func authorizationRecord(_ kind: TestDatabases.Kind) async throws {
        try await Self.withTestCards(kind) { repository, accounts in
            let account = accounts[0]
            let data: [UInt8] = Array(0x01...0x0E)
            let withData = Self.record(account, amount: 300, stan: 21)
            let decision = try await repository.authorize(account.keyedPAN) { _ in
                var record = withData
                record.walletTransactionData = data
                return AuthorizationDecision(result: .approved, record: record)
            }
            #expect(decision?.record?.walletTransactionData == data)
            let stored = try #require(try await repository.authorization(withData.reference))
            #expect(stored.walletTransactionData == data)
            #expect(stored.amount == 300 && stored.keyedPAN == account.keyedPAN && !stored.reversed)
            #expect(stored.date == Self.date && stored.approvalCode == "A21")
            _ = try await repository.authorize(account.keyedPAN, Self.spend(200, stan: 22, atc: 1))
            let plainReference = Self.record(account, amount: 0, stan: 22).reference
            let plain = try #require(try await repository.authorization(plainReference))
            #expect(plain.walletTransactionData == nil && plain.amount == 200)
            guard case .reversed(let reversed) = try await repository.reverse(withData.reference, of: account.keyedPAN)
            else {
                Issue.record("not reversed")
                return
            }
            #expect(reversed.walletTransactionData == data)
            #expect(try await repository.authorization(withData.reference)?.reversed == true)
            #expect(try await repository.authorization(Self.record(account, amount: 0, stan: 23).reference) == nil)
        }
    }

    @Test(
        "20 concurrent authorizations of one account never overspend it, nor interleave their ATCs",
        arguments: TestDatabases.kinds)
    func concurrentAuthorizations(_ kind: TestDatabases.Kind) async throws {
        try await Self.withTestCards(kind) { repository, accounts in
            let account = try #require(accounts.first { $0.availableBalance == TestCards.lowBalance })  // 5.00 EUR
            let results = try await withThrowingTaskGroup(of: AuthorizationResult?.self) { group in
                for stan in 1...20 {
                    group.addTask {
                        try await repository.authorize(account.keyedPAN) { account in
                            // Each decision takes the next ATC, so interleaved decisions would repeat one.
                            let atc = (account.lastATC ?? 0) + 1
                            return Self.spend(150, stan: stan, atc: atc)(&account)
                        }?.result
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0 == .approved }.count == 3)
            #expect(results.filter { $0 == .insufficientFunds }.count == 17)
            let after = try #require(try await repository.account(account.keyedPAN))
            #expect(after.availableBalance == TestCards.lowBalance - 450)
            #expect(after.lastATC == 20)
        }
    }
}
