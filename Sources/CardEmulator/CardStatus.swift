public import EMV

/// The status words this card answers beyond plain success, each named once so the wallet and reader layers can
/// map them.
///
/// ``noPaymentKeys`` is used for nothing else, so a wallet can tell "replenish" from every other refusal.
public enum CardStatus {
    /// 6A84: no usable limited-use key is left (all used or expired); the wallet maps it to `noPaymentKeys`.
    public static let noPaymentKeys = StatusWord.notEnoughMemory
    /// 6986: the transaction needs a cardholder verification on the phone that the wallet has not done ("see
    /// phone", EMV Contactless Book C-3).
    public static let seePhone = StatusWord.commandNotAllowedNoCurrentEF
    /// 6985: the command is not allowed in the card's current state (e.g. GENERATE AC before GET PROCESSING
    /// OPTIONS).
    public static let wrongState = StatusWord.conditionsOfUseNotSatisfied
    /// 6700: command data of the wrong length (e.g. PDOL or CDOL data not as long as the list asks).
    public static let wrongLength = StatusWord.wrongLength
    /// 6A86: P1 or P2 not valid for the command.
    public static let wrongParameters = StatusWord.incorrectP1P2
    /// 6A82: no application or file with that name.
    public static let fileNotFound = StatusWord.fileNotFound
    /// 6A83: no such record in the file.
    public static let recordNotFound = StatusWord.recordNotFound
    /// 6A88: GET DATA for a data object the card does not have.
    public static let dataNotFound = StatusWord.referencedDataNotFound
    /// 6A80: command data that is not what the command takes (e.g. GPO data outside a `83` template).
    public static let incorrectData = StatusWord.incorrectData
    /// 6983: the PIN try limit is reached.
    public static let pinBlocked = StatusWord.authenticationMethodBlocked
    /// 6D00: an instruction the card does not know.
    public static let instructionNotSupported = StatusWord.instructionNotSupported
    /// 6E00: a class byte the card does not accept for the instruction.
    public static let classNotSupported = StatusWord.classNotSupported
}
