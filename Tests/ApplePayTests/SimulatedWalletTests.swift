import ApplePay
import Testing

@Suite("SimulatedWallet availability")
struct SimulatedWalletTests {
    typealias Samples = PaymentRequestSamples

    @Test("a device without Apple Pay can make no payments, whatever it holds")
    func unsupportedDevice() {
        let wallet = SimulatedWallet(deviceSupportsApplePay: false, cards: [Samples.visaDebit])
        #expect(!wallet.canMakePayments())
        #expect(!wallet.canMakePayments(usingNetworks: [.visa]))
        #expect(wallet.eligibleCards(for: Samples.basic).isEmpty)
    }

    @Test("an empty wallet can make payments but not with any network")
    func emptyWallet() {
        let wallet = SimulatedWallet(cards: [])
        #expect(wallet.canMakePayments())
        #expect(!wallet.canMakePayments(usingNetworks: PaymentNetwork.allCases))
    }

    @Test("networks select cards")
    func networks() {
        let wallet = Samples.wallet
        #expect(wallet.canMakePayments(usingNetworks: [.visa]))
        #expect(wallet.canMakePayments(usingNetworks: [.discover, .amex]))
        #expect(!wallet.canMakePayments(usingNetworks: [.discover, .jcb]))
    }

    static let capabilityCases: [(PaymentNetwork, MerchantCapability, Bool)] = [
        (.visa, .threeDSecure, true),
        (.visa, [.threeDSecure, .debit], true),
        (.visa, [.threeDSecure, .credit], false),
        (.masterCard, [.threeDSecure, .credit], true),
        (.masterCard, [.threeDSecure, .debit], false),
        (.visa, [.emv], false),
        (.visa, [], true),
    ]

    @Test("capabilities filter by card kind and protocol", arguments: capabilityCases)
    func capabilities(network: PaymentNetwork, capabilities: MerchantCapability, expected: Bool) {
        #expect(Samples.wallet.canMakePayments(usingNetworks: [network], capabilities: capabilities) == expected)
    }

    @Test("prepaid counts as debit; an EMV card suits an EMV merchant")
    func prepaidAndEMV() {
        let prepaid = SimulatedWallet.Card(id: "p", network: .visa, type: .prepaid, displayName: "Visa 1111")
        #expect(prepaid.isAccepted(with: [.threeDSecure, .debit]))
        #expect(!prepaid.isAccepted(with: [.threeDSecure, .credit]))
        let unionPay = SimulatedWallet.Card(
            id: "u", network: .chinaUnionPay, type: .debit, capabilities: .emv, displayName: "UnionPay 8888")
        #expect(unionPay.isAccepted(with: [.threeDSecure, .emv]))
        #expect(!unionPay.isAccepted(with: .threeDSecure))
    }

    @Test("eligible cards honour the request's networks, capabilities and supported countries")
    func eligible() {
        var request = Samples.basic
        #expect(Samples.wallet.eligibleCards(for: request).map(\.id) == ["visa-debit", "mc-credit"])
        request.merchantCapabilities = [.threeDSecure, .credit]
        #expect(Samples.wallet.eligibleCards(for: request).map(\.id) == ["mc-credit"])
        request.supportedCountries = ["GB"]
        #expect(Samples.wallet.eligibleCards(for: request).isEmpty)
    }
}
