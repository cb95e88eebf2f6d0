import ContactlessTesting
import Crypto
import EMV
import Foundation
import Issuer
import ReaderKernel
import SmartCard
import TestMode
import Testing
import ValueAddedServices
import Wallet

/// Loyalty passes in the wallet: sealed in its storage, served on the field with the payment card in one tap.
@Suite struct LoyaltyPassTests {
    static let coffee = "pass.com.example.coffee"
    let merchantKey = P256.KeyAgreement.PrivateKey()

    func pass(_ serial: String = "M-1", message: String = "member-1001", authenticate: Bool = false) throws -> VASPass {
        try VASPass(
            passTypeIdentifier: Self.coffee, serialNumber: serial, message: message,
            encryptionKey: merchantKey.publicKey, requiresAuthentication: authenticate)
    }

    func vas(_ harness: WalletHarness) async throws -> VASReader.Outcome {
        await harness.channel.presentCard()
        return try await VASReader.read(
            VASReader.Request(
                merchants: [VASReader.Merchant(passTypeIdentifier: Self.coffee)], mode: .vasAndPayment),
            over: harness.channel)
    }

    @Test func passesAreSealedAtRestAndReadBack() async throws {
        let storage = InMemoryWalletStorage()
        let harness = try WalletHarness(storage: storage)
        try await harness.wallet.addPass(try pass(message: "secret-member-77"))
        try await harness.wallet.addPass(try pass("M-2", message: "member-2"))
        try await harness.wallet.addPass(try pass("M-2", message: "member-2b"))  // replaces
        #expect(try await harness.wallet.passes().map(\.nfc.message).sorted() == ["member-2b", "secret-member-77"])
        for name in try storage.names() {
            let record = try #require(try storage.data(named: name))
            #expect(!String(decoding: record, as: UTF8.self).contains("secret-member-77"))
            #expect(!record.elementsEqual(Data("secret-member-77".utf8)))
        }
        try await harness.wallet.removePass(passTypeIdentifier: Self.coffee, serialNumber: "M-2")
        #expect(try await harness.wallet.passes().map(\.serialNumber) == ["M-1"])
    }

    @Test func aPassAloneIsServedWithoutAPaymentSession() async throws {
        let harness = try WalletHarness()
        try await harness.wallet.addPass(try pass())
        try await harness.wallet.addPass(try pass("M-9", authenticate: true))
        try await harness.wallet.servePasses(on: harness.field)
        let outcome = try await vas(harness)
        #expect(outcome.wallet?.capabilities.contains(.payment) == false)
        #expect(outcome.entries.map(\.statusWord) == [.success])
        let message = try VASDecryptor(keys: [merchantKey]).decrypt(
            outcome.entries[0].cryptogram!, passTypeIdentifier: Self.coffee, now: harness.clock.now)
        #expect(message.message == "member-1001")
        // No card is presented: the payment side has no application.
        #expect(try await harness.channel.transmit(.selectPPSE).statusWord == .fileNotFound)
    }

    @Test func aPassNeedingAuthenticationWaitsForTheCardholder() async throws {
        let harness = try WalletHarness()
        try await harness.wallet.addPass(try pass(authenticate: true))
        try await harness.wallet.servePasses(on: harness.field)
        #expect(try await vas(harness).entries.map(\.statusWord) == [VASStatus.userInterventionRequired])
    }

    @Test func aPaymentSessionServesThePassAndTheCardInOneTap() async throws {
        let harness = try WalletHarness()
        _ = try await harness.digitize(.visa)
        try await harness.wallet.addPass(try pass(authenticate: true))
        let session = harness.session()
        var events = try await SessionEvents.authenticated(session)
        try await session.startEmulation()
        await harness.channel.presentCard()
        let outcome = try await VASReader.read(
            VASReader.Request(merchants: [VASReader.Merchant(passTypeIdentifier: Self.coffee)], mode: .vasAndPayment),
            over: harness.channel)
        #expect(outcome.wallet?.capabilities.contains([.vas, .payment]) == true)
        #expect(outcome.entries.map(\.statusWord) == [.success])
        // The same tap goes on to pay.
        let result = await harness.kernel.perform(
            TransactionRequest(amount: Amount(minorUnits: 1_234, currency: .eur), type: .purchase),
            over: harness.channel)
        #expect(result.outcome.status == .onlineRequest)
        #expect(await events.rest().suffix(2) == ["posConnected", "transactionCompleted"])
    }
}
