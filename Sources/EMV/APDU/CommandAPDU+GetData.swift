extension CommandAPDU {
    /// GET DATA (EMV Book 3, 6.5.7): `80 CA P1 P2 00` with the tag in P1 P2, for data objects such as the
    /// ATC (9F36), Last Online ATC Register (9F13), PIN Try Counter (9F17) or Log Format (9F4F).
    ///
    /// A one-byte tag goes in P2 with P1 = 00.
    public static func getData(tag: UInt16) -> CommandAPDU {
        CommandAPDU(unchecked: 0x80, 0xCA, UInt8(tag >> 8), UInt8(tag & 0xFF), [], 256)
    }

    /// GET DATA for a named tag: `try .getData(tag: .applicationTransactionCounter)`.
    ///
    /// Disfavoured so that a literal such as `getData(tag: 0x9F36)` still picks the `UInt16` form.
    /// - Throws: ``APDUError/Code/invalidParameter`` for a tag of three bytes, which P1 P2 cannot hold.
    @_disfavoredOverload
    public static func getData(tag: Tag) throws -> CommandAPDU {
        guard tag.byteCount <= 2 else {
            throw APDUError(
                code: .invalidParameter, offset: nil, message: "GET DATA takes a tag of one or two bytes, not \(tag)")
        }
        return getData(tag: UInt16(tag.rawValue))
    }
}
