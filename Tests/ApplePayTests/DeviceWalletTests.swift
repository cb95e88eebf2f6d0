import ApplePay
import Testing

/// PassKit's class-level availability questions, answered by the process's device wallet. The only suite that sets
/// `SimulatedWallet.current`, serialized, each test restoring it: the rest of the tests pass their wallet.
@Suite("PaymentAuthorizationController's class-level availability", .serialized)
struct DeviceWalletTests {
    typealias Samples = PaymentRequestSamples

    /// Runs `body` with `wallet` as the device's wallet, then puts the previous one back.
    static func with<Result>(_ wallet: SimulatedWallet, _ body: () async throws -> Result) async rethrows -> Result {
        let previous = SimulatedWallet.current
        SimulatedWallet.current = wallet
        defer { SimulatedWallet.current = previous }
        return try await body()
    }

    @Test("until configured: a device with Apple Pay and no card")
    func unconfigured() {
        #expect(SimulatedWallet.current == SimulatedWallet(deviceSupportsApplePay: true, cards: []))
        #expect(PaymentAuthorizationController.canMakePayments())
        #expect(!PaymentAuthorizationController.canMakePayments(usingNetworks: PaymentNetwork.allCases))
    }

    @Test("the class methods answer from the configured wallet, as PassKit spells them")
    func configured() async {
        await Self.with(Samples.wallet) {
            #expect(PaymentAuthorizationController.canMakePayments())
            #expect(PaymentAuthorizationController.canMakePayments(usingNetworks: [.visa]))
            #expect(!PaymentAuthorizationController.canMakePayments(usingNetworks: [.discover, .jcb]))
            #expect(
                PaymentAuthorizationController.canMakePayments(
                    usingNetworks: [.masterCard], capabilities: [.threeDSecure, .credit]))
            #expect(
                !PaymentAuthorizationController.canMakePayments(
                    usingNetworks: [.visa], capabilities: [.threeDSecure, .credit]))
        }
        await Self.with(SimulatedWallet(deviceSupportsApplePay: false, cards: [Samples.visaDebit])) {
            #expect(!PaymentAuthorizationController.canMakePayments())
            #expect(!PaymentAuthorizationController.canMakePayments(usingNetworks: [.visa]))
            #expect(
                !PaymentAuthorizationController.canMakePayments(usingNetworks: [.visa], capabilities: .threeDSecure))
        }
    }

    @Test("a sheet made without a wallet uses the device's, as the class methods do")
    func sheetUsesTheDeviceWallet() async throws {
        try await Self.with(SimulatedWallet(cards: [Samples.amexCredit])) {
            #expect(!PaymentAuthorizationController.canMakePayments(usingNetworks: Samples.basic.supportedNetworks))
            let controller = PaymentAuthorizationController(
                paymentRequest: Samples.basic, delegate: TestMerchant(),
                tokenMaker: { try await TokenRecorder().make($0) })
            await #expect(throws: AuthorizationError.noEligiblePaymentMethod) { try await controller.present() }
        }
        try await Self.with(Samples.wallet) {
            #expect(PaymentAuthorizationController.canMakePayments(usingNetworks: Samples.basic.supportedNetworks))
            let controller = PaymentAuthorizationController(
                paymentRequest: Samples.basic, delegate: TestMerchant(),
                tokenMaker: { try await TokenRecorder().make($0) })
            try await controller.present()
            #expect(await controller.selectedCard?.id == "visa-debit")
        }
    }
}
