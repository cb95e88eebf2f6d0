import ApplePay
import Testing

@Suite("PaymentButton")
struct PaymentButtonTests {
    @Test("every PKPaymentButtonType and PKPaymentButtonStyle, in PassKit's order and raw values")
    func passKitCases() {
        #expect(
            PaymentButton.ButtonType.allCases.map { "\($0)" } == [
                "plain", "buy", "setUp", "inStore", "donate", "checkout", "book", "subscribe", "reload", "addMoney",
                "topUp", "order", "rent", "support", "contribute", "tip", "continue",
            ])
        #expect(PaymentButton.ButtonType.allCases.map(\.rawValue) == Array(0...16))
        #expect(PaymentButton.ButtonStyle.allCases.map { "\($0)" } == ["white", "whiteOutline", "black", "automatic"])
        #expect(PaymentButton.ButtonStyle.allCases.map(\.rawValue) == Array(0...3))
    }

    @Test("made as PassKit makes it, the button keeps its type and style")
    func initializer() {
        let button = PaymentButton(paymentButtonType: .checkout, paymentButtonStyle: .whiteOutline)
        #expect(button.paymentButtonType == .checkout)
        #expect(button.paymentButtonStyle == .whiteOutline)
        #expect(button.description == "PaymentButton(checkout, whiteOutline)")
        #expect(button != PaymentButton(paymentButtonType: .checkout, paymentButtonStyle: .black))
    }

    @Test("each type says its own call to action with Apple Pay; plain shows the mark alone")
    func titles() {
        let titles = PaymentButton.ButtonType.allCases.map {
            PaymentButton(paymentButtonType: $0, paymentButtonStyle: .black).title
        }
        #expect(Set(titles).count == titles.count)
        #expect(titles.allSatisfy { $0.hasSuffix("Apple Pay") })
        #expect(PaymentButton(paymentButtonType: .plain, paymentButtonStyle: .black).title == "Apple Pay")
        #expect(PaymentButton(paymentButtonType: .buy, paymentButtonStyle: .black).title == "Buy with Apple Pay")
        #expect(PaymentButton(paymentButtonType: .inStore, paymentButtonStyle: .white).title == "Pay with Apple Pay")
        #expect(PaymentButton(paymentButtonType: .setUp, paymentButtonStyle: .white).title == "Set up Apple Pay")
    }

    @Test("automatic is black in the light appearance and white in the dark; the others never change")
    func appearance() {
        let automatic = PaymentButton(paymentButtonType: .buy, paymentButtonStyle: .automatic)
        #expect(automatic.resolvedStyle(darkAppearance: false) == .black)
        #expect(automatic.resolvedStyle(darkAppearance: true) == .white)
        for style in [PaymentButton.ButtonStyle.white, .whiteOutline, .black] {
            let button = PaymentButton(paymentButtonType: .buy, paymentButtonStyle: style)
            #expect(button.resolvedStyle(darkAppearance: false) == style)
            #expect(button.resolvedStyle(darkAppearance: true) == style)
        }
    }
}
