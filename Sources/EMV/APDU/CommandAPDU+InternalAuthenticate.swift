extension CommandAPDU {
    /// INTERNAL AUTHENTICATE (EMV Book 3, 6.5.9): `00 88 00 00 Lc DDOL-data 00`, asking the card to sign
    /// dynamic data for DDA.
    ///
    /// - Throws: ``APDUError/Code/dataTooLong`` for data that does not fit an extended Lc.
    public static func internalAuthenticate(ddolData: [UInt8]) throws -> CommandAPDU {
        try CommandAPDU(cla: 0x00, ins: 0x88, p1: 0x00, p2: 0x00, data: ddolData, ne: 256)
    }
}
