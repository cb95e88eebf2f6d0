import CardEmulator
import EMV

/// The card applet as a phone wallet runs it between taps: the emulated card, with the wallet's cardholder
/// verification re-armed for every transaction and the transactions counted.
///
/// A real wallet asks for the cardholder's face or passcode before each tap; an emulator serving a benchmark of
/// hundreds of purchases stands in for that by authenticating again whenever a new transaction can begin (the card
/// is powered or reset, or an application or directory is selected), since the card consumes the verification.
struct WalletApplet: CardApplet {
    /// The card.
    var card: EmulatedCard
    /// Whether the wallet verified the cardholder (CDCVM) before each transaction.
    let cardholderVerifiedOnPhone: Bool
    /// Transactions that took an ATC (a cryptogram or checksum was computed).
    private(set) var transactionsServed = 0

    init(card: EmulatedCard, cardholderVerifiedOnPhone: Bool) {
        self.card = card
        self.cardholderVerifiedOnPhone = cardholderVerifiedOnPhone
        armCardholderVerification()
    }

    mutating func respond(to command: CommandAPDU) -> ResponseAPDU {
        if command.instruction == .select { armCardholderVerification() }
        let before = card.lastATC
        let response = card.respond(to: command)
        if card.lastATC != before { transactionsServed += 1 }
        return response
    }

    mutating func reset() {
        card.reset()
        armCardholderVerification()
    }

    private mutating func armCardholderVerification() {
        if cardholderVerifiedOnPhone { card.authenticateCardholder() }
    }
}
