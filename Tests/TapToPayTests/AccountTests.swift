import Foundation
import GatewayAPI
import Issuer
import TapToPay
import Testing
import TestMode

@Suite("TapToPay: account links, tokens, devices and merchants", .serialized)
struct AccountTests {
    @Test("a staff user cannot link (admins only); the admin links; relinking takes a token that allows it")
    func staffLinking() async throws {
        try await TestGateway.with { gateway in
            let merchant = try await gateway.merchant()
            let staff = try await gateway.token(merchant, user: merchant.staffId)
            let reader = gateway.reader(interface: LoopbackInterface())
            // Apple's article: "Confirm that the user is an admin. Otherwise, display a message that states only
            // admins may accept the Terms and Conditions."
            do {
                try await reader.linkAccount(using: staff)
                Issue.record("a staff user linked the account")
            } catch let error as PaymentCardReaderError {
                switch error {
                case .notAllowed: break
                default: Issue.record("linking as staff threw \(error), not notAllowed")
                }
            }
            await #expect(throws: PaymentCardReaderError.notAllowed) {
                try await reader.linkAccount(using: staff)
            }
            #expect(try await reader.isAccountLinked(using: staff) == false)
            await #expect(throws: PaymentCardReaderError.accountNotLinked) { try await reader.prepare(using: staff) }

            let admin = try await gateway.token(merchant)
            try await reader.linkAccount(using: admin)
            await #expect(throws: PaymentCardReaderError.accountAlreadyLinked) {
                try await reader.linkAccount(using: admin)
            }
            await #expect(throws: PaymentCardReaderError.accountLinkingFailed) {
                try await reader.relinkAccount(using: admin)
            }
            try await reader.relinkAccount(using: try await gateway.token(merchant, allowsRelinking: true))
            // Linked for every device and user: the staff user's reader now prepares and reads.
            #expect(try await reader.isAccountLinked(using: staff))
            let interface = LoopbackInterface()
            let staffReader = gateway.reader(interface: interface)
            let session = try await staffReader.prepare(using: staff)
            let card = try gateway.card(.approve, .visa)
            await interface.tap(card.channel)
            let read = try await session.readPaymentCard(PaymentCardTransactionRequest(amount: 2, currencyCode: "EUR"))
            #expect(try await gateway.authorize(read, minorUnits: 200, for: merchant).get().status == .succeeded)
        }
    }

    static func isInvalidReaderToken(_ error: any Error) -> Bool {
        if case PaymentCardReaderError.invalidReaderToken = error { true } else { false }
    }

    @Test("the 4th merchant on a device within 24 h is blocked until the first use ages out")
    func fourthMerchant() async throws {
        try await TestGateway.with { gateway in
            let deviceID = "shared-phone-1"
            var merchants: [TestMerchant] = []
            var tokens: [PaymentCardReader.Token] = []
            for index in 1...4 {
                let (merchant, token) = try await gateway.linkedMerchant("Shop \(index)")
                merchants.append(merchant)
                tokens.append(token)
            }
            let reader = gateway.reader(deviceID: deviceID, interface: LoopbackInterface())
            for token in tokens.prefix(3) {
                _ = try await reader.prepare(using: token)
                gateway.clock.advance(by: 60)
            }
            var bannedUntil: Date?
            do {
                _ = try await reader.prepare(using: tokens[3])
            } catch PaymentCardReaderError.deviceBanned(let until) {
                bannedUntil = until
            }
            let clearsAt = try #require(bannedUntil)
            #expect(clearsAt > gateway.clock.now && clearsAt <= gateway.clock.now.addingTimeInterval(24 * 60 * 60))
            gateway.clock.set(clearsAt.addingTimeInterval(1))
            // A day later the reader tokens have expired too: the merchant's server issues new ones. The first
            // merchant's use aged out, so the fourth prepares, and now the first is the fourth.
            _ = try await reader.prepare(using: try await gateway.token(merchants[3]))
            await #expect {
                try await reader.prepare(using: try await gateway.token(merchants[0]))
            } throws: {
                if case PaymentCardReaderError.deviceBanned(_?) = $0 { true } else { false }
            }
        }
    }

    @Test("tokens: empty, not the PSP's, expired; no interface: unsupported")
    func tokensAndDevice() async throws {
        try await TestGateway.with { gateway in
            let (merchant, token) = try await gateway.linkedMerchant()
            let reader = gateway.reader(interface: LoopbackInterface())
            let empty = PaymentCardReader.Token(rawValue: "")
            await #expect(throws: PaymentCardReaderError.emptyReaderToken) { try await reader.prepare(using: empty) }
            await #expect(throws: PaymentCardReaderError.emptyReaderToken) {
                try await reader.linkAccount(using: empty)
            }
            let forged = PaymentCardReader.Token(rawValue: "eyJhbGciOiJFUzI1NiJ9.e30.AAAA")
            await #expect { try await reader.prepare(using: forged) } throws: { Self.isInvalidReaderToken($0) }
            await #expect { try await reader.isAccountLinked(using: forged) } throws: { Self.isInvalidReaderToken($0) }
            let shortLived = try await gateway.token(merchant, lifetime: 60)
            gateway.clock.advance(by: 61)
            await #expect(throws: PaymentCardReaderError.tokenExpired) { try await reader.prepare(using: shortLived) }
            _ = token

            let noInterface = gateway.reader(interface: nil)
            await #expect(throws: PaymentCardReaderError.unsupported) {
                try await noInterface.prepare(using: try await gateway.token(merchant))
            }
        }
    }
}
