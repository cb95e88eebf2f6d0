extension CommandAPDU {
    /// GET CHALLENGE (EMV Book 3, 6.5.6): `00 84 00 00 00`, the 8-byte unpredictable number the terminal
    /// enciphers with the PIN block before an enciphered VERIFY.
    public static let getChallenge = CommandAPDU(unchecked: 0x00, 0x84, 0x00, 0x00, [], 256)
}
