import EMV
import Foundation

/// The payment sheet, simulated: PassKit's `PKPaymentAuthorizationController` driven by a script of the customer's
/// actions instead of a screen, so tests and `tap demo` run the whole in-app flow.
///
/// ``present()`` validates the request, checks the wallet, preselects the first eligible card (telling the
/// delegate) and the first shipping method. Each ``UserAction`` then calls the matching delegate method and applies
/// its ``PaymentRequestUpdate``, re-validating the request. Shipping contacts reach the delegate redacted
/// (``Contact/redacted()``); ``UserAction/authorize`` has the injected ``PaymentTokenMaker`` make the token and hands
/// the delegate a ``Payment`` with the full contacts. A success closes the sheet; a failure leaves it open with the
/// merchant's errors. ``UserAction/cancel`` (or ``dismiss()``) closes it at any point.
///
/// Unlike PassKit's weak delegate, this one is held strongly: the controller lives only as long as the flow.
public actor PaymentAuthorizationController {
    /// Where the sheet is.
    public enum Phase: Hashable, Sendable {
        /// Not yet presented.
        case idle
        /// On screen, taking the customer's actions.
        case presented
        /// Closed: paid, cancelled or dismissed.
        case finished
    }

    /// The request as the sheet shows it now, after every update applied.
    public private(set) var paymentRequest: PaymentRequest
    /// Where the sheet is.
    public private(set) var phase: Phase = .idle
    /// How the flow ended, so far.
    public private(set) var outcome: PaymentAuthorizationOutcome = .pending
    /// Everything that happened, in order.
    public private(set) var transcript: [AuthorizationEvent] = []
    /// The errors the sheet shows now (from the last update or a failed authorization).
    public private(set) var errors: [PaymentError] = []
    /// The chosen card.
    public private(set) var selectedCard: SimulatedWallet.Card?
    /// The chosen shipping method.
    public private(set) var shippingMethod: ShippingMethod?
    /// The shipping contact as the customer entered it (the delegate only sees it redacted before authorization).
    public private(set) var shippingContact: Contact?

    private let wallet: SimulatedWallet
    private let delegate: any PaymentAuthorizationControllerDelegate
    private let tokenMaker: PaymentTokenMaker

    /// A sheet for `paymentRequest` on a device with `wallet`, answered by `delegate`, whose tokens `tokenMaker`
    /// makes.
    public init(
        paymentRequest: PaymentRequest, wallet: SimulatedWallet,
        delegate: any PaymentAuthorizationControllerDelegate, tokenMaker: @escaping PaymentTokenMaker
    ) {
        self.paymentRequest = paymentRequest
        self.wallet = wallet
        self.delegate = delegate
        self.tokenMaker = tokenMaker
        shippingContact = paymentRequest.shippingContact
    }

    /// A sheet for `paymentRequest` on the device's wallet (``SimulatedWallet/current``, as it is now), answered by
    /// `delegate`, whose tokens `tokenMaker` makes.
    public init(
        paymentRequest: PaymentRequest, delegate: any PaymentAuthorizationControllerDelegate,
        tokenMaker: @escaping PaymentTokenMaker
    ) {
        self.init(
            paymentRequest: paymentRequest, wallet: SimulatedWallet.current, delegate: delegate,
            tokenMaker: tokenMaker)
    }

    /// Opens the sheet.
    ///
    /// - Throws: ``AuthorizationError/Code/invalidRequest`` (with the validation error),
    ///   ``AuthorizationError/Code/paymentsUnavailable``, ``AuthorizationError/Code/noEligiblePaymentMethod``,
    ///   ``AuthorizationError/Code/alreadyPresented``, or what applying the first payment method update throws.
    public func present() async throws(AuthorizationError) {
        guard phase == .idle else {
            throw AuthorizationError(code: .alreadyPresented, message: "the sheet was already presented")
        }
        do {
            try paymentRequest.validate()
        } catch {
            throw AuthorizationError(
                code: .invalidRequest, message: "the payment request is invalid: \(error.code): \(error.message)",
                underlying: error)
        }
        guard wallet.canMakePayments() else {
            throw AuthorizationError(code: .paymentsUnavailable, message: "the device does not support Apple Pay")
        }
        guard let card = wallet.eligibleCards(for: paymentRequest).first else {
            throw AuthorizationError(
                code: .noEligiblePaymentMethod, message: "the wallet holds no card on the request's networks")
        }
        phase = .presented
        transcript.append(.presented(total: paymentRequest.total?.amount ?? 0))
        shippingMethod = paymentRequest.shippingMethods.first
        try await select(card)
    }

    /// Presents the sheet and performs `actions` in order, stopping at the first refused one.
    ///
    /// - Returns: how the flow ended: ``PaymentAuthorizationOutcome/pending`` when the script neither paid nor
    ///   cancelled.
    /// - Throws: what ``present()`` or ``perform(_:)`` throws.
    public func run(_ actions: [UserAction]) async throws(AuthorizationError) -> PaymentAuthorizationOutcome {
        try await present()
        for action in actions {
            try await perform(action)
        }
        return outcome
    }

    /// Performs one customer action.
    ///
    /// - Throws: ``AuthorizationError``: ``AuthorizationError/Code/notPresented`` before ``present()``,
    ///   ``AuthorizationError/Code/alreadyAuthorized`` for an authorization after a successful one,
    ///   ``AuthorizationError/Code/finished`` for anything else after the sheet closed, or the action's own
    ///   refusal.
    public func perform(_ action: UserAction) async throws(AuthorizationError) {
        try checkOpen(for: action)
        switch action {
        case .selectPaymentMethod(let cardID):
            guard let card = wallet.eligibleCards(for: paymentRequest).first(where: { $0.id == cardID }) else {
                throw AuthorizationError(
                    code: .paymentMethodUnavailable, message: "card \(cardID) is not in the wallet or not accepted")
            }
            try await select(card)
        case .selectShippingContact(let contact):
            guard paymentRequest.shippingContactEditingMode != .storePickup else {
                throw AuthorizationError(
                    code: .shippingContactNotEditable, message: "the request's pickup address cannot be changed")
            }
            let redacted = contact.redacted()
            transcript.append(.didSelectShippingContact(redacted))
            let update = await delegate.paymentAuthorizationController(self, didSelectShippingContact: redacted)
            try apply(update)
            shippingContact = contact
        case .selectShippingMethod(let identifier):
            guard let method = paymentRequest.shippingMethods.first(where: { $0.identifier == identifier }) else {
                throw AuthorizationError(
                    code: .unknownShippingMethod, message: "no shipping method has identifier \"\(identifier)\"")
            }
            transcript.append(.didSelectShippingMethod(method))
            let update = await delegate.paymentAuthorizationController(self, didSelectShippingMethod: method)
            try apply(update)
            shippingMethod = method
        case .enterCouponCode(let code):
            guard paymentRequest.supportsCouponCode else {
                throw AuthorizationError(
                    code: .couponCodeNotSupported, message: "the request does not support coupon codes")
            }
            transcript.append(.didChangeCouponCode(code))
            let update = await delegate.paymentAuthorizationController(self, didChangeCouponCode: code)
            try apply(update)
            paymentRequest.couponCode = code
        case .authorize:
            try await authorize()
        case .cancel:
            await finish(.cancelled)
        }
    }

    /// Closes the sheet from the merchant's side, as PassKit's `dismiss()`; nothing happens when already closed.
    public func dismiss() async {
        guard phase == .presented else { return }
        await finish(.dismissed)
    }

    private func checkOpen(for action: UserAction) throws(AuthorizationError) {
        switch phase {
        case .idle:
            throw AuthorizationError(code: .notPresented, message: "the sheet has not been presented")
        case .finished:
            if action == .authorize, case .authorized = outcome {
                throw AuthorizationError(code: .alreadyAuthorized, message: "the payment was already authorized")
            }
            throw AuthorizationError(code: .finished, message: "the sheet is closed")
        case .presented:
            return
        }
    }

    private func select(_ card: SimulatedWallet.Card) async throws(AuthorizationError) {
        // Like the shipping contact, the card's billing address is redacted until authorization.
        var method = PaymentMethod(card)
        method.billingAddress = method.billingAddress?.redacted()
        transcript.append(.didSelectPaymentMethod(method))
        let update = await delegate.paymentAuthorizationController(self, didSelectPaymentMethod: method)
        try apply(update)
        selectedCard = card
    }

    /// Applies the merchant's update to the request, keeping the old request when the new one is invalid.
    private func apply(_ update: PaymentRequestUpdate) throws(AuthorizationError) {
        var updated = paymentRequest
        updated.paymentSummaryItems = update.paymentSummaryItems
        if let methods = update.shippingMethods { updated.shippingMethods = methods }
        if let contexts = update.multiTokenContexts { updated.multiTokenContexts = contexts }
        if let recurring = update.recurringPaymentRequest { updated.recurringPaymentRequest = recurring }
        if let reload = update.automaticReloadPaymentRequest { updated.automaticReloadPaymentRequest = reload }
        if let deferred = update.deferredPaymentRequest { updated.deferredPaymentRequest = deferred }
        do {
            try updated.validate()
        } catch {
            throw AuthorizationError(
                code: .invalidUpdate, message: "the update leaves an invalid request: \(error.code): \(error.message)",
                underlying: error)
        }
        paymentRequest = updated
        errors = update.errors
        if let current = shippingMethod,
            !updated.shippingMethods.contains(where: { $0.identifier == current.identifier })
        {
            shippingMethod = updated.shippingMethods.first
        } else if let current = shippingMethod {
            shippingMethod = updated.shippingMethods.first { $0.identifier == current.identifier }
        } else {
            shippingMethod = updated.shippingMethods.first
        }
        transcript.append(.updated(total: updated.total?.amount ?? 0, errors: update.errors.map(\.code)))
    }

    private func authorize() async throws(AuthorizationError) {
        guard errors.isEmpty else {
            throw AuthorizationError(
                code: .unresolvedErrors,
                message:
                    "the sheet shows \(errors.count) error(s): \(errors.map(\.code.description).joined(separator: ", "))"
            )
        }
        guard let card = selectedCard else {
            throw AuthorizationError(code: .paymentMethodUnavailable, message: "no card is selected")
        }
        let billingContact = paymentRequest.billingContact ?? card.billingContact
        try Self.check(shippingContact, has: paymentRequest.requiredShippingContactFields, "shipping")
        try Self.check(billingContact, has: paymentRequest.requiredBillingContactFields, "billing")
        let amount: Amount
        do {
            amount = try paymentRequest.totalAmount()
        } catch {
            throw AuthorizationError(code: .invalidRequest, message: error.message, underlying: error)
        }
        let authorized = AuthorizedPayment(
            request: paymentRequest, card: card, amount: amount, billingContact: billingContact,
            shippingContact: shippingContact, shippingMethod: shippingMethod)
        let token: PaymentToken
        do {
            token = try await tokenMaker(authorized)
        } catch {
            // The maker's error may describe key material; only its type is safe to repeat.
            throw AuthorizationError(
                code: .tokenUnavailable, message: "the token maker failed (\(type(of: error)))")
        }
        transcript.append(.tokenMade(displayName: card.displayName, total: amount.decimalValue))
        let payment = Payment(
            token: token, paymentMethod: authorized.paymentMethod, billingContact: billingContact,
            shippingContact: shippingContact, shippingMethod: shippingMethod)
        let result = await delegate.paymentAuthorizationController(self, didAuthorizePayment: payment)
        transcript.append(.didAuthorizePayment(result.status, errors: result.errors.map(\.code)))
        switch result.status {
        case .success:
            await finish(.authorized(payment))
        case .failure:
            errors = result.errors
        }
    }

    private static func check(_ contact: Contact?, has fields: Set<ContactField>, _ role: String)
        throws(AuthorizationError)
    {
        for field in ContactField.allCases where fields.contains(field) {
            let present =
                switch field {
                case .name, .phoneticName: contact?.name != nil
                case .postalAddress: contact?.postalAddress != nil
                case .emailAddress: !(contact?.emailAddress ?? "").isEmpty
                case .phoneNumber: !(contact?.phoneNumber ?? "").isEmpty
                }
            guard present else {
                throw AuthorizationError(
                    code: .missingContactField, message: "the \(role) contact lacks the required \(field.rawValue)")
            }
        }
    }

    private func finish(_ outcome: PaymentAuthorizationOutcome) async {
        phase = .finished
        self.outcome = outcome
        transcript.append(.didFinish(cancelled: outcome == .cancelled))
        await delegate.paymentAuthorizationControllerDidFinish(self)
    }
}
