public import EMV

/// A phone's field in one tap: the wallet's VAS application beside a payment card, the reader choosing by SELECT.
///
/// SELECT `OSE.VAS.01` goes to ``vas``; any other SELECT (the PPSE, a payment AID) to ``payment``; every other
/// command to whichever was selected last, the payment card before any SELECT. Without a VAS applet (a plain card),
/// everything goes to the payment card.
public struct PassAndPaymentApplet<Payment: CardApplet>: CardApplet {
    /// The wallet's passes; nil for a card without VAS.
    public var vas: VASApplet?
    /// The payment card.
    public var payment: Payment
    private var vasSelected = false

    public init(vas: VASApplet?, payment: Payment) {
        self.vas = vas
        self.payment = payment
    }

    public mutating func respond(to command: CommandAPDU) -> ResponseAPDU {
        if command.ins == 0xA4 && command.p1 == 0x04 { vasSelected = vas != nil && VASApplet.selects(command) }
        if vasSelected, var applet = vas {
            defer { vas = applet }
            return applet.respond(to: command)
        }
        return payment.respond(to: command)
    }

    public mutating func reset() {
        vasSelected = false
        vas?.reset()
        payment.reset()
    }
}
