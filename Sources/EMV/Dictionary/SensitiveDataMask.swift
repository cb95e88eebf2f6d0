/// Masks sensitive values for display: at most the BIN (first six digits) and the last four digits of a PAN
/// stay readable, and nothing else of track data, names or PIN data.
enum SensitiveDataMask {
    static func mask(_ value: ArraySlice<UInt8>, as masking: TagInfo.Masking) -> String {
        switch masking {
        case .none: value.hexString
        case .pan: panFromBCD(value)
        case .track2: track2(value)
        case .track1: track1(value)
        case .redacted: "[redacted]"
        }
    }

    /// `476173******0119`; every digit becomes `*` when the PAN is too short to keep ten digits visible safely.
    static func maskedPAN(digits: [UInt8]) -> String {
        let count = digits.count
        var result = ""
        for (index, digit) in digits.enumerated() {
            let visible = count > 10 && (index < 6 || index >= count - 4)
            result.unicodeScalars.append(visible ? Unicode.Scalar(UInt8(ascii: "0") + digit) : "*")
        }
        return result
    }

    /// A `cn` PAN: BCD digits padded with trailing `F` nibbles; anything else in it is hidden completely.
    private static func panFromBCD(_ value: ArraySlice<UInt8>) -> String {
        let digits = BCD.nibbles(value).droppingPadding()
        guard digits.allSatisfy({ $0 <= 9 }) else { return stars(digits.count) }
        return maskedPAN(digits: digits)
    }

    /// Track 2 nibbles: PAN, separator `D`, expiry, service code, discretionary data, `F` padding.
    private static func track2(_ value: ArraySlice<UInt8>) -> String {
        let all = BCD.nibbles(value).droppingPadding()
        guard let separator = all.firstIndex(of: 0xD), all[..<separator].allSatisfy({ $0 <= 9 }) else {
            return stars(all.count)
        }
        return maskedPAN(digits: Array(all[..<separator])) + "D" + stars(all.count - separator - 1)
    }

    /// Track 1 (`B` PAN `^` name `^` expiry, service code, discretionary data).
    private static func track1(_ value: ArraySlice<UInt8>) -> String {
        let bytes = Array(value)
        guard bytes.first == UInt8(ascii: "B"), let separator = bytes.firstIndex(of: UInt8(ascii: "^")),
            let digits = BCD.digitValues(ofASCII: bytes[1..<separator])
        else { return stars(bytes.count) }
        return "B" + maskedPAN(digits: digits) + "^" + stars(bytes.count - separator - 1)
    }

    private static func stars(_ count: Int) -> String {
        String(repeating: "*", count: max(count, 0))
    }
}

extension Array where Element == UInt8 {
    /// The nibbles without their trailing `F` padding.
    fileprivate func droppingPadding() -> [UInt8] {
        var result = self
        while result.last == 0xF { result.removeLast() }
        return result
    }
}
