public import EMV

/// A phone's field in one tap: the wallet's VAS application beside a payment card, the reader choosing by SELECT.
///
/// SELECT `OSE.VAS.01` goes to ``vas``; any other SELECT (the PPSE, a payment AID) to ``payment``; every other
/// command to whichever was selected last, the payment card before any SELECT.
public struct PassAndPaymentApplet<Payment: CardApplet>: CardApplet {
    /// The wallet's passes.
    public var vas: VASApplet
    /// The payment card.
    public var payment: Payment
    private var vasSelected = false

    public init(vas: VASApplet, payment: Payment) {
        self.vas = vas
        self.payment = payment
    }

    public mutating func respond(to command: CommandAPDU) -> ResponseAPDU {
        if command.ins == 0xA4 && command.p1 == 0x04 { vasSelected = VASApplet.selects(command) }
        return vasSelected ? vas.respond(to: command) : payment.respond(to: command)
    }

    public mutating func reset() {
        vasSelected = false
        vas.reset()
        payment.reset()
    }
}
