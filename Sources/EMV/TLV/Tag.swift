/// A BER-TLV tag as EMV uses it: one to three bytes, packed big-endian into an integer (`0x9F02`, `0x5A`).
///
/// The first byte carries the class (b8–b7) and whether the object is constructed (b6); when its low five bits
/// are all set, more bytes follow, each with b8 set while yet another byte follows (EMV Book 3, Annex B1).
public struct Tag: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The tag's bytes packed big-endian: `0x9F02` for the two bytes `9F 02`.
    public let rawValue: UInt32

    /// Creates a tag from its packed bytes; see ``isWellFormed`` to check the encoding.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Creates a tag from a literal written as its hexadecimal bytes, e.g. `0x9F02`.
    public init(integerLiteral value: UInt32) {
        self.rawValue = value
    }

    /// Creates a tag from exactly one encoded tag; nil unless the bytes are one complete, well-formed tag.
    public init?(bytes: some Collection<UInt8>) {
        guard (1...3).contains(bytes.count) else { return nil }
        var raw: UInt32 = 0
        for byte in bytes { raw = raw << 8 | UInt32(byte) }
        self.rawValue = raw
        guard isWellFormed else { return nil }
    }

    /// The class of a tag, from bits b8–b7 of its first byte.
    public enum Class: Sendable, Hashable {
        /// `00`: universal (ISO/IEC 8825).
        case universal
        /// `01`: application (EMV templates such as `6F`, `70`, `77` and tags `5F..`).
        case application
        /// `10`: context-specific (most EMV primitive tags: `82`, `94`, `9F..`).
        case contextSpecific
        /// `11`: private (`DF..`, `FF..`: payment-system and kernel proprietary tags).
        case `private`
    }

    /// Number of bytes in the encoded tag (1–3 for EMV tags; 4 only for values no EMV tag has).
    @inlinable
    public var byteCount: Int {
        rawValue > 0xFF_FFFF ? 4 : rawValue > 0xFFFF ? 3 : rawValue > 0xFF ? 2 : 1
    }

    /// The first encoded byte, which holds the class and the constructed bit.
    @inlinable
    public var firstByte: UInt8 {
        UInt8(truncatingIfNeeded: rawValue >> (8 * UInt32(byteCount - 1)))
    }

    /// The encoded tag bytes, e.g. `[0x9F, 0x02]`.
    public var bytes: [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(byteCount)
        appendBytes(to: &result)
        return result
    }

    /// Whether the data object is constructed (b6 of the first byte): its value is a series of data objects.
    @inlinable
    public var isConstructed: Bool { firstByte & 0x20 != 0 }

    /// The tag's class (b8–b7 of the first byte).
    public var tagClass: Class {
        switch firstByte >> 6 {
        case 0: .universal
        case 1: .application
        case 2: .contextSpecific
        default: .private
        }
    }

    /// Whether the bytes form one tag that a strict parser reads back as this tag: 1–3 bytes, continuation bits
    /// set exactly on the bytes that have a successor, and not a byte sequence EMV reads as padding (`00`, `FF 00`,
    /// `FF FF`).
    public var isWellFormed: Bool {
        let count = byteCount
        guard count <= 3 else { return false }
        let first = firstByte
        guard first != 0x00 else { return false }
        if count == 1 { return first & 0x1F != 0x1F }
        guard first & 0x1F == 0x1F else { return false }
        let second = UInt8(truncatingIfNeeded: rawValue >> (8 * UInt32(count - 2)))
        if first == 0xFF && (second == 0x00 || second == 0xFF) { return false }
        let last = UInt8(truncatingIfNeeded: rawValue)
        if count == 2 { return second & 0x80 == 0 }
        return second & 0x80 != 0 && last & 0x80 == 0
    }

    /// Upper-case hexadecimal bytes, e.g. `9F02`.
    public var description: String { bytes.hexString }

    /// Orders tags by their packed value.
    public static func < (lhs: Tag, rhs: Tag) -> Bool { lhs.rawValue < rhs.rawValue }

    @inlinable
    func appendBytes(to output: inout [UInt8]) {
        var shift = 8 * UInt32(byteCount - 1)
        while true {
            output.append(UInt8(truncatingIfNeeded: rawValue >> shift))
            if shift == 0 { break }
            shift -= 8
        }
    }
}
