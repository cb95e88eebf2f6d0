extension CommandAPDU {
    /// Which matching file SELECT by name returns (P2 bits 2-1; EMV Book 1, 11.3.2).
    public enum SelectOccurrence: UInt8, Hashable, Sendable {
        /// P2 = 00: the first or only occurrence.
        case first = 0x00
        /// P2 = 02: the next occurrence, to walk applications sharing a partial AID.
        case next = 0x02
    }

    /// The Proximity Payment System Environment name, `2PAY.SYS.DDF01` (EMV Contactless Book B, 3.3.2).
    public static let proximityPaymentSystemEnvironment = Array("2PAY.SYS.DDF01".utf8)

    /// The contact Payment System Environment name, `1PAY.SYS.DDF01` (EMV Book 1, 12.2.2).
    public static let paymentSystemEnvironment = Array("1PAY.SYS.DDF01".utf8)

    /// SELECT by DF name (EMV Book 1, 11.3): `00 A4 04 P2 Lc name 00`, expecting the FCI template.
    ///
    /// - Parameters:
    ///   - name: an AID or DF name of 1 to 16 bytes (ISO/IEC 7816-4 limits DF names to 16).
    ///   - occurrence: first (P2 = 00) or next (P2 = 02) match.
    /// - Throws: ``APDUError/Code/invalidParameter`` for an empty name or one longer than 16 bytes.
    public static func select(name: [UInt8], occurrence: SelectOccurrence = .first) throws -> CommandAPDU {
        guard (1...16).contains(name.count) else {
            throw APDUError(
                code: .invalidParameter, offset: nil, message: "a DF name has 1 to 16 bytes, got \(name.count)")
        }
        return CommandAPDU(unchecked: 0x00, 0xA4, 0x04, occurrence.rawValue, name, 256)
    }

    /// SELECT of the PPSE, the first command of every contactless transaction:
    /// `00 A4 04 00 0E 32 50 41 59 2E 53 59 53 2E 44 44 46 30 31 00`.
    public static let selectPPSE = CommandAPDU(
        unchecked: 0x00, 0xA4, 0x04, 0x00, proximityPaymentSystemEnvironment, 256)

    /// SELECT of the contact PSE `1PAY.SYS.DDF01`.
    public static let selectPSE = CommandAPDU(unchecked: 0x00, 0xA4, 0x04, 0x00, paymentSystemEnvironment, 256)
}
