/// The Apple Pay button, as PassKit's `PKPaymentButton` describes it: which call to action it shows and in which
/// colours, without drawing it. An app keeps PassKit's names (`PaymentButton(paymentButtonType: .buy,
/// paymentButtonStyle: .black)`) and reads back what the button says and how it looks in either appearance.
public struct PaymentButton: Hashable, Sendable, CustomStringConvertible {
    /// The button's call to action, as `PKPaymentButtonType` (the raw values are PassKit's).
    public enum ButtonType: Int, Hashable, Sendable, CaseIterable {
        /// The Apple Pay logo only, when no call to action is needed.
        case plain = 0
        /// "Buy with Apple Pay": product purchases.
        case buy = 1
        /// "Set up Apple Pay": prompts to add a card to Wallet.
        case setUp = 2
        /// "Pay with Apple Pay": paying bills or invoices, in store.
        case inStore = 3
        /// "Donate with Apple Pay": approved nonprofits only.
        case donate = 4
        /// "Check out with Apple Pay": beside other "Check out" buttons.
        case checkout = 5
        /// "Book with Apple Pay": trips, flights, experiences.
        case book = 6
        /// "Subscribe with Apple Pay": subscriptions.
        case subscribe = 7
        /// "Reload with Apple Pay": adding money to a card, account or payment system.
        case reload = 8
        /// "Add money with Apple Pay": adding money to a card, account or payment system.
        case addMoney = 9
        /// "Top up with Apple Pay": adding money to a card, account or payment system.
        case topUp = 10
        /// "Order with Apple Pay": placing orders, such as meals or flowers.
        case order = 11
        /// "Rent with Apple Pay": renting cars, scooters and the like.
        case rent = 12
        /// "Support with Apple Pay": giving money to projects, causes and organisations.
        case support = 13
        /// "Contribute with Apple Pay": contributing money to projects, causes and organisations.
        case contribute = 14
        /// "Tip with Apple Pay": tipping for goods or services.
        case tip = 15
        /// "Continue with Apple Pay": general purchases that continue elsewhere.
        case `continue` = 16
    }

    /// The button's colours, as `PKPaymentButtonStyle` (the raw values are PassKit's).
    public enum ButtonStyle: Int, Hashable, Sendable, CaseIterable {
        /// A white button with black text, on dark backgrounds.
        case white = 0
        /// A white button with black text and a black outline, on light backgrounds that need the contrast.
        case whiteOutline = 1
        /// A black button with white text, on white or light backgrounds.
        case black = 2
        /// Black in the light appearance and white in the dark one, following the system.
        case automatic = 3
    }

    /// The call to action.
    public var paymentButtonType: ButtonType
    /// The colours.
    public var paymentButtonStyle: ButtonStyle

    /// A button of `type` in `style`, as `PKPaymentButton(paymentButtonType:paymentButtonStyle:)`.
    public init(paymentButtonType type: ButtonType, paymentButtonStyle style: ButtonStyle) {
        paymentButtonType = type
        paymentButtonStyle = style
    }

    /// What the button says, its accessibility label: "Buy with Apple Pay", or "Apple Pay" for ``ButtonType/plain``.
    public var title: String {
        switch paymentButtonType {
        case .plain: "Apple Pay"
        case .setUp: "Set up Apple Pay"
        case .buy: "Buy with Apple Pay"
        case .inStore: "Pay with Apple Pay"
        case .donate: "Donate with Apple Pay"
        case .checkout: "Check out with Apple Pay"
        case .book: "Book with Apple Pay"
        case .subscribe: "Subscribe with Apple Pay"
        case .reload: "Reload with Apple Pay"
        case .addMoney: "Add money with Apple Pay"
        case .topUp: "Top up with Apple Pay"
        case .order: "Order with Apple Pay"
        case .rent: "Rent with Apple Pay"
        case .support: "Support with Apple Pay"
        case .contribute: "Contribute with Apple Pay"
        case .tip: "Tip with Apple Pay"
        case .continue: "Continue with Apple Pay"
        }
    }

    /// The style the button is drawn in: ``ButtonStyle/automatic`` resolves to ``ButtonStyle/black`` in the light
    /// appearance and ``ButtonStyle/white`` in the dark one; the others are fixed.
    public func resolvedStyle(darkAppearance: Bool) -> ButtonStyle {
        guard paymentButtonStyle == .automatic else { return paymentButtonStyle }
        return darkAppearance ? .white : .black
    }

    /// `PaymentButton(buy, black)`.
    public var description: String { "PaymentButton(\(paymentButtonType), \(paymentButtonStyle))" }
}
