extension CommandAPDU {
    /// READ RECORD (EMV Book 3, 6.5.11): `00 B2 record P2 00` with P2 = SFI << 3 | 4 ("P1 is a record
    /// number"), reading one record of an AFL entry.
    ///
    /// - Parameters:
    ///   - record: the record number, 1...255 (0 would mean "current record", which EMV never uses).
    ///   - sfi: the short file identifier, 1...30 (31 is reserved).
    /// - Throws: ``APDUError/Code/invalidParameter`` for a record or SFI out of range (both come from the
    ///   card's AFL, so a bad card must not crash the reader).
    public static func readRecord(_ record: UInt8, sfi: UInt8) throws -> CommandAPDU {
        guard record != 0 else {
            throw APDUError(code: .invalidParameter, offset: nil, message: "record number 0 is not allowed")
        }
        guard (1...30).contains(sfi) else {
            throw APDUError(code: .invalidParameter, offset: nil, message: "SFI \(sfi) is outside 1...30")
        }
        return CommandAPDU(unchecked: 0x00, 0xB2, record, sfi << 3 | 0x04, [], 256)
    }
}
