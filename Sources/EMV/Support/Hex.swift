/// Hexadecimal text for byte strings: the notation EMV specifications, logs of APDUs and test vectors use.
extension Array where Element == UInt8 {
    /// Decodes hexadecimal text (upper or lower case, no separators); nil when the text is not an even
    /// number of hex digits.
    public init?(hex: some StringProtocol) {
        let decoded =
            hex.utf8.withContiguousStorageIfAvailable { Self.decodeHex($0) }
            ?? Array(hex.utf8).withUnsafeBufferPointer { Self.decodeHex($0) }
        guard let decoded else { return nil }
        self = decoded
    }

    private static func decodeHex(_ digits: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var valid = false
        let bytes = [UInt8](unsafeUninitializedCapacity: digits.count / 2) { output, count in
            valid = decodeHex(digits, into: output)
            count = valid ? digits.count / 2 : 0
        }
        return valid ? bytes : nil
    }

    /// Decodes ASCII hex digits (either case, no separators) into `output`, which must hold `digits.count / 2`
    /// bytes; false for an odd count, a short `output` or a non-hex character (`output` then holds partial data).
    ///
    /// The one hex decoder of the project: `init(hex:)` uses it, and so does the batch interface, which decodes
    /// millions of arguments into reused buffers without allocating.
    @inlinable
    public static func decodeHex(
        _ digits: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        let count = digits.count / 2
        guard digits.count % 2 == 0, output.count >= count else { return false }
        var index = 0
        if let source = digits.baseAddress, let target = output.baseAddress {
            // Eight digits at a time while there are (card data, keys and cryptogram inputs are long).
            while 2 * index + 8 <= digits.count {
                let word = UInt64(
                    littleEndian: UnsafeRawPointer(source + 2 * index).loadUnaligned(as: UInt64.self))
                guard let bytes = decodeHexWord(word) else { return false }
                UnsafeMutableRawPointer(target + index).storeBytes(of: bytes.littleEndian, as: UInt32.self)
                index += 4
            }
        }
        // A 256-entry table beats the range tests of `nibble` on this hot path; 0xFF marks a non-digit.
        let nibbles = hexNibbles
        while index < count {
            let high = nibbles[Int(digits[2 * index])]
            let low = nibbles[Int(digits[2 * index + 1])]
            if (high | low) & 0x80 != 0 { return false }
            output[index] = high << 4 | low
            index += 1
        }
        return true
    }

    /// The four bytes spelt by eight ASCII hex digits (the first digit in the low byte of `word`, the first byte
    /// in the low byte of the result), or nil when any of the eight is not a hex digit: range tests on all eight
    /// bytes at once (SWAR; each byte stays below 0x80, so no test carries into the next byte).
    @inlinable @inline(__always)
    static func decodeHexWord(_ word: UInt64) -> UInt32? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs = ones &* 0x80
        guard word & highs == 0 else { return nil }
        // A byte is a digit when 0x30 ≤ b ≤ 0x39, a letter when 0x61 ≤ (b | 0x20) ≤ 0x66.
        let lower = word | ones &* 0x20
        let digit = (word &+ ones &* (0x80 - 0x30)) & (ones &* (0x80 + 0x39) &- word)
        let letter = (lower &+ ones &* (0x80 - 0x61)) & (ones &* (0x80 + 0x66) &- lower)
        guard (digit | letter) & highs == highs else { return nil }
        // Digits keep their low nibble; letters (bit 6 set) add 9 to theirs: 'A' and 'a' are 0x_1.
        let nibbles = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ (word &>> 6 & ones) &* 9
        // Each pair's first digit is the high nibble; then the four bytes close up.
        var packed = (nibbles & 0x000F_000F_000F_000F) &<< 4 | (nibbles &>> 8 & 0x000F_000F_000F_000F)
        packed = (packed | packed &>> 8) & 0x0000_FFFF_0000_FFFF
        packed = packed | packed &>> 16
        return UInt32(truncatingIfNeeded: packed)
    }

    /// The value of one ASCII hex digit, either case; nil for any other byte.
    @inline(__always)
    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c &- UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c &- UInt8(ascii: "A") &+ 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c &- UInt8(ascii: "a") &+ 10
        default: nil
        }
    }
}

/// The value of each byte as an ASCII hex digit (either case), 0xFF for every other byte.
///
/// Raw memory rather than an array: reading a shared array retains and releases its buffer, and threads decoding
/// at once then fought over that reference count's cache line. Written once, here, and only read afterwards.
@usableFromInline
nonisolated(unsafe) let hexNibbles: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for byte in 0..<256 { table[byte] = [UInt8].nibble(UInt8(byte)) ?? 0xFF }
    return UnsafePointer(table)
}()

extension Sequence where Element == UInt8 {
    /// Upper-case hexadecimal text of the bytes, two digits each, no separators.
    public var hexString: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
