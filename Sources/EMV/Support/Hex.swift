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
        guard count > 0, let source = digits.baseAddress, let target = output.baseAddress else { return true }
        var index = 0
        // Eight digits at a time while there are (card data, keys and cryptogram inputs are long).
        while 2 * index + 8 <= digits.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(source + 2 * index).loadUnaligned(as: UInt64.self))
            guard let bytes = decodeHexWord(word) else { return false }
            UnsafeMutableRawPointer(target + index).storeBytes(of: bytes.littleEndian, as: UInt32.self)
            index += 4
        }
        // The last two, four or six digits through the same word, its unused bytes filled with '0' digits: most
        // arguments are short, and the table of nibbles this replaced was a lazy global (a `swift_once` check
        // per call) with a branch per byte.
        if count - index >= 2 {
            let digits4 = UnsafeRawPointer(source + 2 * index).loadUnaligned(as: UInt32.self)
            let word = UInt64(UInt32(littleEndian: digits4)) | 0x3030_3030_0000_0000
            guard let bytes = decodeHexWord(word) else { return false }
            UnsafeMutableRawPointer(target + index).storeBytes(
                of: UInt16(truncatingIfNeeded: bytes).littleEndian, as: UInt16.self)
            index += 2
        }
        if index < count {
            let digits2 = UnsafeRawPointer(source + 2 * index).loadUnaligned(as: UInt16.self)
            let word = UInt64(UInt16(littleEndian: digits2)) | 0x3030_3030_3030_0000
            guard let bytes = decodeHexWord(word) else { return false }
            target[index] = UInt8(truncatingIfNeeded: bytes)
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
