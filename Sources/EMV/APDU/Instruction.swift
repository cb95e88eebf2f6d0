/// An instruction byte (INS) of the commands EMV cards and readers exchange (ISO/IEC 7816-4 and EMV Book 3, 6.5),
/// with its name, so a card can dispatch on `command.instruction` and a trace can say what each command was.
public struct Instruction: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The INS byte.
    public let rawValue: UInt8

    /// Wraps an INS byte, known or not.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// SELECT (A4): chooses a directory or application by name.
    public static let select = Instruction(rawValue: 0xA4)
    /// READ RECORD (B2).
    public static let readRecord = Instruction(rawValue: 0xB2)
    /// GET PROCESSING OPTIONS (A8): starts the transaction with the PDOL data.
    public static let getProcessingOptions = Instruction(rawValue: 0xA8)
    /// GENERATE APPLICATION CRYPTOGRAM (AE).
    public static let generateAC = Instruction(rawValue: 0xAE)
    /// COMPUTE CRYPTOGRAPHIC CHECKSUM (2A): Mastercard mag-stripe mode.
    public static let computeCryptographicChecksum = Instruction(rawValue: 0x2A)
    /// GET DATA (CA).
    public static let getData = Instruction(rawValue: 0xCA)
    /// VERIFY (20): offline PIN.
    public static let verify = Instruction(rawValue: 0x20)
    /// INTERNAL AUTHENTICATE (88): dynamic data authentication.
    public static let internalAuthenticate = Instruction(rawValue: 0x88)
    /// GET CHALLENGE (84).
    public static let getChallenge = Instruction(rawValue: 0x84)
    /// GET RESPONSE (C0): the rest of a T=0 response.
    public static let getResponse = Instruction(rawValue: 0xC0)
    /// EXTERNAL AUTHENTICATE (82): issuer authentication data, contact transactions.
    public static let externalAuthenticate = Instruction(rawValue: 0x82)

    private static let names: [UInt8: String] = [
        0xA4: "SELECT", 0xB2: "READ RECORD", 0xA8: "GET PROCESSING OPTIONS", 0xAE: "GENERATE AC",
        0x2A: "COMPUTE CRYPTOGRAPHIC CHECKSUM", 0xCA: "GET DATA", 0x20: "VERIFY", 0x88: "INTERNAL AUTHENTICATE",
        0x84: "GET CHALLENGE", 0xC0: "GET RESPONSE", 0x82: "EXTERNAL AUTHENTICATE",
    ]

    /// The command's name for the instructions above, e.g. `GET PROCESSING OPTIONS`; nil for others.
    public var name: String? { Self.names[rawValue] }

    /// The name, or `INS XX` for an instruction without one.
    public var description: String { name ?? "INS \([rawValue].hexString)" }
}

extension CommandAPDU {
    /// The command's instruction (its INS byte).
    public var instruction: Instruction { Instruction(rawValue: ins) }
}
