extension CommandAPDU {
    /// How the PIN travels in VERIFY: P2, the qualifier of the reference data (EMV Book 3, 6.5.12.2, table 23).
    public enum PINFormat: UInt8, Hashable, Sendable {
        /// P2 = 80: plaintext PIN block.
        case plaintext = 0x80
        /// P2 = 88: PIN block enciphered under the ICC (PIN encipherment) public key.
        case enciphered = 0x88
    }

    /// VERIFY (EMV Book 3, 6.5.12): `00 20 00 P2 Lc PIN-data`, case 3 (no response data).
    ///
    /// - Parameters:
    ///   - pinData: the 8-byte plaintext PIN block (control 2, length, digits, F filler), or the enciphered
    ///     PIN data, as long as the ICC public key modulus.
    ///   - format: plaintext (P2 = 80) or enciphered (P2 = 88).
    /// - Throws: ``APDUError/Code/invalidParameter`` for a plaintext block that is not 8 bytes or empty
    ///   enciphered data; the message gives the length only, never the PIN data.
    public static func verify(pinData: [UInt8], format: PINFormat) throws -> CommandAPDU {
        switch format {
        case .plaintext where pinData.count != 8:
            throw APDUError(
                code: .invalidParameter, offset: nil,
                message: "a plaintext PIN block has 8 bytes, got \(pinData.count)")
        case .enciphered where pinData.isEmpty:
            throw APDUError(code: .invalidParameter, offset: nil, message: "enciphered PIN data is empty")
        default:
            return try CommandAPDU(cla: 0x00, ins: 0x20, p1: 0x00, p2: format.rawValue, data: pinData)
        }
    }

    /// VERIFY with a plaintext offline PIN (EMV Book 3, 6.5.12.2): builds the PIN block `2N PP PP ... FF`
    /// (control field 2, PIN length N, the digits, F filler to 8 bytes) and sends it with P2 = 80.
    ///
    /// - Parameter pin: 4 to 12 decimal digits.
    /// - Throws: ``APDUError/Code/invalidParameter`` for a PIN of another length or with non-digits; the
    ///   message never contains the PIN.
    public static func verify(plaintextPIN pin: some StringProtocol) throws -> CommandAPDU {
        guard let digits = BCD.digitValues(ofText: pin), (4...12).contains(digits.count) else {
            throw APDUError(
                code: .invalidParameter, offset: nil, message: "a PIN has 4 to 12 decimal digits")
        }
        let nibbles: [UInt8] = [0x2, UInt8(digits.count)] + digits
        let block = BCD.pack(nibbles + [UInt8](repeating: 0xF, count: 16 - nibbles.count))
        return CommandAPDU(unchecked: 0x00, 0x20, 0x00, PINFormat.plaintext.rawValue, block)
    }
}
