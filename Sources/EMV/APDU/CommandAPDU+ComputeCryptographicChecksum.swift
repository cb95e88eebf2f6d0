extension CommandAPDU {
    /// COMPUTE CRYPTOGRAPHIC CHECKSUM (EMV Contactless Book C-2, 5.3): `80 2A 8E 80 Lc UDOL-data 00`,
    /// the mag-stripe mode command that returns CVC3 values.
    ///
    /// - Throws: ``APDUError/Code/dataTooLong`` for data that does not fit an extended Lc.
    public static func computeCryptographicChecksum(udolData: [UInt8]) throws -> CommandAPDU {
        try CommandAPDU(cla: 0x80, ins: 0x2A, p1: 0x8E, p2: 0x80, data: udolData, ne: 256)
    }
}
