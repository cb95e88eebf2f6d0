extension CommandAPDU {
    /// GET PROCESSING OPTIONS (EMV Book 3, 6.5.8): `80 A8 00 00 Lc 83 L data 00`.
    ///
    /// The PDOL related data goes inside the Command Template, tag 83, with a BER length; a card without a PDOL
    /// gets the empty template `83 00`, so the command is `80 A8 00 00 02 83 00 00`.
    ///
    /// - Throws: ``APDUError/Code/dataTooLong`` when the template would not fit an extended Lc.
    public static func getProcessingOptions(pdolData: [UInt8] = []) throws -> CommandAPDU {
        let template = [0x83] + berLength(pdolData.count) + pdolData
        return try CommandAPDU(cla: 0x80, ins: 0xA8, p1: 0x00, p2: 0x00, data: template, ne: 256)
    }

    /// The minimal BER-TLV length field for `count` (ISO/IEC 8825-1, definite form).
    static func berLength(_ count: Int) -> [UInt8] {
        switch count {
        case ..<0x80: [UInt8(count)]
        case ..<0x100: [0x81, UInt8(count)]
        case ..<0x1_0000: [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        default: [0x83, UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
        }
    }
}
