/// Decimal digits packed two per byte, right-justified (EMV format n), for the few terminal values the EMV core has
/// no type for (transaction time, merchant category code).
enum NumericBCD {
    /// `value` in `byteCount` bytes of BCD; higher digits that do not fit are dropped.
    static func encode(_ value: Int, byteCount: Int) -> [UInt8] {
        var remaining = max(value, 0)
        var bytes = [UInt8](repeating: 0, count: byteCount)
        for index in stride(from: byteCount - 1, through: 0, by: -1) {
            bytes[index] = UInt8(remaining % 10) | UInt8(remaining / 10 % 10) << 4
            remaining /= 100
        }
        return bytes
    }
}
