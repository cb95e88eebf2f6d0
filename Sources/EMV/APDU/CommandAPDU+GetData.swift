extension CommandAPDU {
    /// GET DATA (EMV Book 3, 6.5.7): `80 CA P1 P2 00` with the tag in P1 P2, for data objects such as the
    /// ATC (9F36), Last Online ATC Register (9F13), PIN Try Counter (9F17) or Log Format (9F4F).
    ///
    /// A one-byte tag goes in P2 with P1 = 00.
    public static func getData(tag: UInt16) -> CommandAPDU {
        CommandAPDU(unchecked: 0x80, 0xCA, UInt8(tag >> 8), UInt8(tag & 0xFF), [], 256)
    }
}
