extension CommandAPDU {
    /// The cryptogram GENERATE AC asks for: bits 8-7 of the reference control parameter P1
    /// (EMV Book 3, 6.5.5.2, table 12).
    public enum CryptogramRequest: UInt8, Hashable, Sendable, CaseIterable {
        /// Application Authentication Cryptogram: decline.
        case aac = 0x00
        /// Transaction Certificate: approve offline.
        case tc = 0x40
        /// Authorisation Request Cryptogram: go online.
        case arqc = 0x80
    }

    /// GENERATE APPLICATION CRYPTOGRAM (EMV Book 3, 6.5.5): `80 AE P1 00 Lc CDOL-data 00`.
    ///
    /// - Parameters:
    ///   - type: the cryptogram requested (P1 bits 8-7).
    ///   - cdaRequested: sets P1 bit 5 (0x10), asking for a CDA signature.
    ///   - cdolData: the data built from CDOL1 or CDOL2.
    /// - Throws: ``APDUError/Code/dataTooLong`` for data that does not fit an extended Lc.
    public static func generateAC(
        _ type: CryptogramRequest, cdaRequested: Bool = false, cdolData: [UInt8]
    ) throws -> CommandAPDU {
        let p1 = type.rawValue | (cdaRequested ? 0x10 : 0x00)
        return try CommandAPDU(cla: 0x80, ins: 0xAE, p1: p1, p2: 0x00, data: cdolData, ne: 256)
    }
}
