/// The status word SW1 SW2 that ends every response APDU (ISO/IEC 7816-4, 5.6; EMV Book 1, 9.4; EMV Book 3,
/// 6.3.5).
///
/// Named values live in `StatusWord+Catalog.swift`; families that carry a number in SW2 have constructors
/// (``bytesAvailable(_:)``, ``wrongLe(exact:)``, ``verificationFailed(triesLeft:)``) and readers
/// (``bytesAvailable``, ``exactLength``, ``triesLeft``).
public struct StatusWord: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// SW1 in the high byte, SW2 in the low byte.
    public let rawValue: UInt16

    /// Creates a status word from its 16-bit value, e.g. `0x9000`.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Creates a status word from its 16-bit value, e.g. `StatusWord(0x6A82)`.
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// Creates a status word from its two bytes.
    public init(sw1: UInt8, sw2: UInt8) { self.rawValue = UInt16(sw1) << 8 | UInt16(sw2) }

    /// The first status byte: the category.
    public var sw1: UInt8 { UInt8(rawValue >> 8) }
    /// The second status byte: the qualifier.
    public var sw2: UInt8 { UInt8(rawValue & 0xFF) }

    /// Normal processing (ISO/IEC 7816-4 table 5): 9000, or 61xx, which says the command succeeded and more
    /// response bytes wait for a GET RESPONSE.
    public var isSuccess: Bool { rawValue == 0x9000 || sw1 == 0x61 }

    /// Warning processing: 62xx (non-volatile memory unchanged) or 63xx (changed). EMV treats these as a
    /// completed command whose response data may still be used (Book 1, 9.4.1).
    public var isWarning: Bool { sw1 == 0x62 || sw1 == 0x63 }

    /// Neither normal nor warning processing: an execution or checking error.
    public var isError: Bool { !isSuccess && !isWarning }

    /// 61xx: `61 XX` with SW2 bytes still available (SW2 = 00 means 256), ready for GET RESPONSE.
    public static func bytesAvailable(_ count: Int) -> StatusWord {
        StatusWord(sw1: 0x61, sw2: UInt8(truncatingIfNeeded: count))
    }

    /// 6Cxx: wrong Le; SW2 gives the exact length to ask for again (00 means 256).
    public static func wrongLe(exact length: Int) -> StatusWord {
        StatusWord(sw1: 0x6C, sw2: UInt8(truncatingIfNeeded: length))
    }

    /// 63Cx: verification failed, with x tries left (0...15).
    public static func verificationFailed(triesLeft: Int) -> StatusWord {
        StatusWord(sw1: 0x63, sw2: 0xC0 | UInt8(truncatingIfNeeded: min(max(triesLeft, 0), 15)))
    }

    /// For 61xx, the number of bytes still available (1...256); nil otherwise.
    public var bytesAvailable: Int? { sw1 == 0x61 ? (sw2 == 0 ? 256 : Int(sw2)) : nil }

    /// For 6Cxx, the exact Le to repeat the command with (1...256); nil otherwise.
    public var exactLength: Int? { sw1 == 0x6C ? (sw2 == 0 ? 256 : Int(sw2)) : nil }

    /// For 63Cx, the number of tries left (0...15); nil otherwise.
    public var triesLeft: Int? { sw1 == 0x63 && sw2 & 0xF0 == 0xC0 ? Int(sw2 & 0x0F) : nil }

    /// Four hex digits and the meaning, e.g. `6A82 (File or application not found)`.
    public var description: String { "\([sw1, sw2].hexString) (\(meaning))" }
}
