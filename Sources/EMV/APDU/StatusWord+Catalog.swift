// Named status words and their meanings: ISO/IEC 7816-4:2020 tables 5 and 6, with EMV's wording where EMV
// Book 1 (9.4) or Book 3 (6.5, command descriptions) names the same value differently.

extension StatusWord {
    /// 9000: process completed normally.
    public static let success = StatusWord(0x9000)

    /// 6200: warning, state of non-volatile memory unchanged, no information given.
    public static let warning = StatusWord(0x6200)
    /// 6281: part of returned data may be corrupted.
    public static let dataMayBeCorrupted = StatusWord(0x6281)
    /// 6282: end of file or record reached before reading Ne bytes.
    public static let endOfFileReached = StatusWord(0x6282)
    /// 6283: selected file invalidated (EMV: a blocked application answers SELECT with this).
    public static let selectedFileInvalidated = StatusWord(0x6283)
    /// 6284: file control information not formatted according to ISO/IEC 7816-4.
    public static let fciNotFormatted = StatusWord(0x6284)
    /// 6300: authentication or verification failed, no further information (e.g. EXTERNAL AUTHENTICATE).
    public static let authenticationFailed = StatusWord(0x6300)
    /// 6381: file filled up by the last write.
    public static let fileFilledUp = StatusWord(0x6381)

    /// 6400: execution error, state of non-volatile memory unchanged.
    public static let executionError = StatusWord(0x6400)
    /// 6401: immediate response required by the card.
    public static let immediateResponseRequired = StatusWord(0x6401)
    /// 6500: execution error, state of non-volatile memory changed.
    public static let executionErrorMemoryChanged = StatusWord(0x6500)
    /// 6581: memory failure.
    public static let memoryFailure = StatusWord(0x6581)

    /// 6700: wrong length (Lc or Le).
    public static let wrongLength = StatusWord(0x6700)

    /// 6800: functions in CLA not supported.
    public static let claFunctionNotSupported = StatusWord(0x6800)
    /// 6881: logical channel not supported.
    public static let logicalChannelNotSupported = StatusWord(0x6881)
    /// 6882: secure messaging not supported.
    public static let secureMessagingNotSupported = StatusWord(0x6882)
    /// 6883: last command of the chain expected.
    public static let lastCommandOfChainExpected = StatusWord(0x6883)
    /// 6884: command chaining not supported.
    public static let commandChainingNotSupported = StatusWord(0x6884)

    /// 6900: command not allowed, no information given.
    public static let commandNotAllowed = StatusWord(0x6900)
    /// 6981: command incompatible with file structure.
    public static let incompatibleFileStructure = StatusWord(0x6981)
    /// 6982: security status not satisfied.
    public static let securityStatusNotSatisfied = StatusWord(0x6982)
    /// 6983: authentication method blocked (EMV: PIN try limit reached).
    public static let authenticationMethodBlocked = StatusWord(0x6983)
    /// 6984: referenced data invalidated (ISO: reference data not usable).
    public static let referencedDataInvalidated = StatusWord(0x6984)
    /// 6985: conditions of use not satisfied.
    public static let conditionsOfUseNotSatisfied = StatusWord(0x6985)
    /// 6986: command not allowed, no current EF.
    public static let commandNotAllowedNoCurrentEF = StatusWord(0x6986)
    /// 6987: expected secure messaging data objects missing.
    public static let secureMessagingDataObjectsMissing = StatusWord(0x6987)
    /// 6988: incorrect secure messaging data objects.
    public static let incorrectSecureMessagingDataObjects = StatusWord(0x6988)

    /// 6A00: wrong parameters P1-P2, no information given.
    public static let wrongParametersNoInformation = StatusWord(0x6A00)
    /// 6A80: incorrect parameters in the command data field.
    public static let incorrectData = StatusWord(0x6A80)
    /// 6A81: function not supported (EMV: card or application blocked, on SELECT).
    public static let functionNotSupported = StatusWord(0x6A81)
    /// 6A82: file or application not found.
    public static let fileNotFound = StatusWord(0x6A82)
    /// 6A83: record not found.
    public static let recordNotFound = StatusWord(0x6A83)
    /// 6A84: not enough memory space in the file.
    public static let notEnoughMemory = StatusWord(0x6A84)
    /// 6A85: Nc inconsistent with TLV structure.
    public static let ncInconsistentWithTLV = StatusWord(0x6A85)
    /// 6A86: incorrect parameters P1-P2.
    public static let incorrectP1P2 = StatusWord(0x6A86)
    /// 6A87: Nc inconsistent with parameters P1-P2.
    public static let ncInconsistentWithP1P2 = StatusWord(0x6A87)
    /// 6A88: referenced data or reference data not found (EMV: GET DATA for an unknown tag).
    public static let referencedDataNotFound = StatusWord(0x6A88)
    /// 6A89: file already exists.
    public static let fileAlreadyExists = StatusWord(0x6A89)
    /// 6A8A: DF name already exists.
    public static let dfNameAlreadyExists = StatusWord(0x6A8A)

    /// 6B00: wrong parameters P1-P2.
    public static let wrongParameters = StatusWord(0x6B00)
    /// 6D00: instruction code not supported or invalid.
    public static let instructionNotSupported = StatusWord(0x6D00)
    /// 6E00: class not supported.
    public static let classNotSupported = StatusWord(0x6E00)
    /// 6F00: no precise diagnosis.
    public static let noPreciseDiagnosis = StatusWord(0x6F00)

    private static let meanings: [UInt16: String] = [
        0x9000: "Success",
        0x6200: "Warning, no information given",
        0x6281: "Part of returned data may be corrupted",
        0x6282: "End of file or record reached before reading Ne bytes",
        0x6283: "Selected file invalidated",
        0x6284: "File control information not formatted",
        0x6300: "Authentication failed",
        0x6381: "File filled up by the last write",
        0x6400: "Execution error, memory unchanged",
        0x6401: "Immediate response required by the card",
        0x6500: "Execution error, memory changed",
        0x6581: "Memory failure",
        0x6700: "Wrong length",
        0x6800: "Functions in CLA not supported",
        0x6881: "Logical channel not supported",
        0x6882: "Secure messaging not supported",
        0x6883: "Last command of the chain expected",
        0x6884: "Command chaining not supported",
        0x6900: "Command not allowed",
        0x6981: "Command incompatible with file structure",
        0x6982: "Security status not satisfied",
        0x6983: "Authentication method blocked",
        0x6984: "Referenced data invalidated",
        0x6985: "Conditions of use not satisfied",
        0x6986: "Command not allowed, no current EF",
        0x6987: "Expected secure messaging data objects missing",
        0x6988: "Incorrect secure messaging data objects",
        0x6A00: "Wrong parameters P1-P2, no information given",
        0x6A80: "Incorrect parameters in the command data field",
        0x6A81: "Function not supported",
        0x6A82: "File or application not found",
        0x6A83: "Record not found",
        0x6A84: "Not enough memory space in the file",
        0x6A85: "Nc inconsistent with TLV structure",
        0x6A86: "Incorrect parameters P1-P2",
        0x6A87: "Nc inconsistent with parameters P1-P2",
        0x6A88: "Referenced data not found",
        0x6A89: "File already exists",
        0x6A8A: "DF name already exists",
        0x6B00: "Wrong parameters P1-P2",
        0x6D00: "Instruction code not supported or invalid",
        0x6E00: "Class not supported",
        0x6F00: "No precise diagnosis",
    ]

    /// A human description of the status word: its own name when it has one, else its family's
    /// (e.g. `61 10` reads "16 response bytes still available").
    public var meaning: String {
        if let text = Self.meanings[rawValue] { return text }
        if let count = bytesAvailable { return "\(count) response bytes still available" }
        if let length = exactLength { return "Wrong Le, exact length is \(length)" }
        if let tries = triesLeft { return "Verification failed, \(tries) tries left" }
        return switch sw1 {
        case 0x62: "Warning, memory unchanged"
        case 0x63: "Warning, memory changed"
        case 0x64: "Execution error, memory unchanged"
        case 0x65: "Execution error, memory changed"
        case 0x66: "Security-related issue"
        case 0x67: "Wrong length"
        case 0x68: "Functions in CLA not supported"
        case 0x69: "Command not allowed"
        case 0x6A: "Wrong parameters P1-P2"
        case 0x90: "Process completed, proprietary qualifier"
        default: "Unknown status"
        }
    }
}
