extension CommandAPDU {
    /// GET RESPONSE (ISO/IEC 7816-4, 11.7.1; EMV Book 1, 9.3.1.3): `00 C0 00 00 Le`, fetching the bytes a
    /// `61xx` status word announced.
    ///
    /// - Parameter expectedLength: 1...256 bytes (256 is sent as Le = 00); pass ``StatusWord/bytesAvailable``.
    /// - Throws: ``APDUError/Code/expectedLengthOutOfRange`` for other lengths.
    public static func getResponse(expectedLength: Int) throws -> CommandAPDU {
        guard (1...256).contains(expectedLength) else {
            throw APDUError(
                code: .expectedLengthOutOfRange, offset: nil,
                message: "GET RESPONSE asks for 1...256 bytes, not \(expectedLength)")
        }
        return CommandAPDU(unchecked: 0x00, 0xC0, 0x00, 0x00, [], expectedLength)
    }
}
