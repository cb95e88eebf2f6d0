/// A fixed-length EMV data element made of independent bits (AIP, TVR, TSI, TTQ, CTQ): an `OptionSet` whose
/// raw value holds byte 1 in its most significant used byte, with the bits' names from the specification.
///
/// Bits are numbered as in the EMV books: byte 1 is the first byte, bit 8 its most significant bit, so
/// ``init(byte:bit:)`` with `byte: 1, bit: 8` is the first bit on the wire.
///
/// Each is also ``TLVCodable`` under its tag (``TLVCodable/defaultTag``), with the value's bytes as ``bytes``.
public protocol EMVOptionSet: OptionSet, Hashable, Sendable, CustomStringConvertible, TLVCodable
where RawValue: FixedWidthInteger & UnsignedInteger, Element == Self {
    /// The length of the data element in bytes.
    static var byteCount: Int { get }
    /// Every defined bit with its name from the specification, in wire order.
    static var namedBits: [(bit: Self, name: String)] { get }
}

extension EMVOptionSet {
    /// The option for bit `bit` (8 = most significant ... 1) of byte `byte` (1 = first on the wire).
    public init(byte: Int, bit: Int) {
        self.init(rawValue: RawValue(1) << ((Self.byteCount - byte) * 8 + bit - 1))
    }

    /// Decodes the data element's value.
    ///
    /// - Throws: ``ValueError/Code/invalidLength`` unless exactly ``byteCount`` bytes are given. Reserved bits
    ///   are kept, not rejected: terminals ignore RFU bits, and re-encoding must give back the same bytes.
    public init(bytes: some Collection<UInt8>) throws {
        guard bytes.count == Self.byteCount else {
            throw ValueError(
                code: .invalidLength, offset: 0,
                message: "\(Self.self) has \(Self.byteCount) bytes, got \(bytes.count)")
        }
        self.init(rawValue: bytes.reduce(RawValue(0)) { $0 << 8 | RawValue($1) })
    }

    /// The encoded value, ``byteCount`` bytes.
    public var bytes: [UInt8] {
        (0..<Self.byteCount).map { index in
            UInt8(truncatingIfNeeded: rawValue >> ((Self.byteCount - 1 - index) * 8))
        }
    }

    /// Names of the set bits that have one, in wire order.
    public var names: [String] { Self.namedBits.filter { contains($0.bit) }.map(\.name) }

    /// The set bits that have no name: reserved for future use.
    public var reservedBits: Self {
        Self(rawValue: Self.namedBits.reduce(rawValue) { $0 & ~$1.bit.rawValue })
    }

    /// Hex bytes and the names of the set bits, e.g.
    /// `8000000000: Offline data authentication was not performed`.
    public var description: String {
        var parts = names
        if !reservedBits.isEmpty { parts.append("RFU bits \(reservedBits.bytes.hexString)") }
        return parts.isEmpty ? bytes.hexString : "\(bytes.hexString): \(parts.joined(separator: "; "))"
    }
}
