public import EMV

/// Apple's Value Added Services (VAS) protocol over ISO 7816-4, as wallets and certified readers speak it: the
/// `OSE.VAS.01` application, GET VAS DATA per merchant, and the pass's message encrypted to the merchant's key.
///
/// Apple does not publish the protocol; this follows its public descriptions (kormax/apple-vas, Grayson Martin's
/// write-up, the Proxmark3 `hf vas` commands), version 1.0. docs/vas.md walks an exchange byte by byte.
public enum VASProtocol {
    /// The application's name, `OSE.VAS.01`, selected by DF name.
    public static let applicationName: [UInt8] = Array("OSE.VAS.01".utf8)
    /// What an Apple wallet puts in the SELECT answer's application label (tag 50).
    public static let appleWalletLabel = "ApplePay"
    /// Version 1.0, the only one described, in the SELECT answer (9F21) and each GET VAS DATA (9F22).
    public static let version: [UInt8] = [0x01, 0x00]
    /// The longest pass message a wallet sends (Apple's pass.json `nfc.message`: "no more than 64 bytes").
    public static let maximumMessageLength = 64

    /// SELECT `OSE.VAS.01`.
    public static let select = CommandAPDU(unchecked: 0x00, 0xA4, 0x04, 0x00, applicationName, 256)

    /// GET VAS DATA's class and instruction bytes: `80 CA`, P1 = 01.
    static let getDataClass: UInt8 = 0x80
    static let getDataInstruction: UInt8 = 0xCA
    static let getDataP1: UInt8 = 0x01
}

/// The data objects of the protocol. Tags of the 9F2x range mean something else in EMV payment applications (9F27
/// is the cryptogram information data there), so they live here, not beside EMV's.
public enum VASTag {
    /// SELECT answer: the wallet's VAS version.
    public static let walletVersion: Tag = 0x9F21
    /// GET VAS DATA: the reader's protocol version.
    public static let readerVersion: Tag = 0x9F22
    /// SELECT answer: what the wallet can do (``VASWalletCapabilities``).
    public static let walletCapabilities: Tag = 0x9F23
    /// SELECT answer: a random number the wallet draws each selection.
    public static let walletNonce: Tag = 0x9F24
    /// GET VAS DATA: SHA-256 of the pass type identifier the reader asks for.
    public static let merchantIDHash: Tag = 0x9F25
    /// GET VAS DATA: the reader's capabilities and mode (``VASTerminalCapabilities``).
    public static let terminalCapabilities: Tag = 0x9F26
    /// GET VAS DATA answer: the encrypted pass message.
    public static let cryptogram: Tag = 0x9F27
    /// GET VAS DATA: the merchant's sign-up URL, offered when the customer has no pass.
    public static let signupURL: Tag = 0x9F29
}

/// How a reader combines loyalty with payment in one tap (GET VAS DATA's mode, as ECP carries it too).
public enum VASMode: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// Loyalty, and payment only when no pass answered: `stopOnVASResult` in ProximityReader.
    case vasOrPayment = 0
    /// Loyalty, then payment in the same tap; several passes may be read.
    case vasAndPayment = 1
    /// Loyalty only; one pass per tap.
    case vasOnly = 2
    /// Payment only: no pass is released.
    case paymentOnly = 3
}

/// The status words a wallet answers GET VAS DATA with (Core NFC's `NFCVASResponse.ErrorCode` names them).
public enum VASStatus {
    /// The pass's cryptogram follows.
    public static let success = StatusWord.success
    /// The wallet has no pass for the merchant.
    public static let dataNotFound = StatusWord(0x6A83)
    /// The wallet has the pass but has not released it (not activated for this reader).
    public static let dataNotActivated = StatusWord(0x6287)
    /// The pass needs the customer to authenticate on the phone first.
    public static let userInterventionRequired = StatusWord(0x6984)
    /// The request's data objects are malformed or missing.
    public static let incorrectData = StatusWord.incorrectData
    /// P1 or P2 is not one the wallet knows.
    public static let wrongParameters = StatusWord(0x6B00)
    /// Lc does not match the data.
    public static let wrongLength = StatusWord.wrongLength
}
