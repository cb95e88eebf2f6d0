/// A scheme's card verification results (CVR): what the card found during the transaction, sent to the issuer
/// inside the issuer application data (tag 9F10) and covered by the cryptogram.
///
/// Every CVR here starts with the same byte: the cryptogram types of the second GENERATE AC in bits 8-7 and of
/// the first in bits 6-5 (for the VIS CVR that is its byte 2, the first after its length byte). The CVR has no
/// tag of its own; ``TLVCodable/defaultTag`` is the IAD's, the data element it travels in.
///
/// Some CVR bits are not flags but counts (a PIN try counter's or script counter's low nibble): each type lists
/// them in ``countFields``, so that ``reservedBits`` and ``description`` do not take them for RFU bits.
public protocol CardVerificationResults: EMVOptionSet {
    /// The fields that hold a number rather than flags: their bits and names.
    static var countFields: [(mask: Self, name: String)] { get }
}

extension CardVerificationResults {
    /// The set bits that are neither named flags nor part of a count: reserved for future use.
    public var reservedBits: Self {
        let flagsAndCounts = Self.namedBits.map(\.bit) + Self.countFields.map(\.mask)
        return Self(rawValue: flagsAndCounts.reduce(rawValue) { $0 & ~$1.rawValue })
    }

    /// Hex bytes, the names of the set bits and the nonzero counts, e.g.
    /// `A00003220000: Second GENERATE AC not requested; …; PIN try counter 3`.
    public var description: String {
        let counts = Self.countFields.compactMap { field -> String? in
            let value = (rawValue & field.mask.rawValue) >> field.mask.rawValue.trailingZeroBitCount
            return value == 0 ? nil : "\(field.name) \(value)"
        }
        var parts = names + counts
        if !reservedBits.isEmpty { parts.append("RFU bits \(reservedBits.bytes.hexString)") }
        return parts.isEmpty ? bytes.hexString : "\(bytes.hexString): \(parts.joined(separator: "; "))"
    }

    /// The cryptogram returned in the first GENERATE AC (bits 6-5 of the first byte).
    public var firstGenerateAC: FirstGenerateACCryptogramType {
        get { FirstGenerateACCryptogramType(rawValue: field(byte: 1, shift: 4, width: 2)) ?? .reserved }
        set { setField(newValue.rawValue, byte: 1, shift: 4, width: 2) }
    }

    /// The cryptogram returned in the second GENERATE AC (bits 8-7 of the first byte).
    public var secondGenerateAC: SecondGenerateACCryptogramType {
        get { SecondGenerateACCryptogramType(rawValue: field(byte: 1, shift: 6, width: 2)) ?? .reserved }
        set { setField(newValue.rawValue, byte: 1, shift: 6, width: 2) }
    }

    /// The `width` bits of byte `byte` (1 = first) starting `shift` bits above its least significant bit.
    func field(byte: Int, shift: Int, width: Int) -> UInt8 {
        let position = (Self.byteCount - byte) * 8 + shift
        return UInt8(truncatingIfNeeded: rawValue >> position) & UInt8((1 << width) - 1)
    }

    /// Replaces the field that ``field(byte:shift:width:)`` reads; extra high bits of `value` are dropped.
    mutating func setField(_ value: UInt8, byte: Int, shift: Int, width: Int) {
        let position = (Self.byteCount - byte) * 8 + shift
        let mask = RawValue((1 << width) - 1) << position
        let bits = (RawValue(value) << position) & mask
        self = Self(rawValue: (rawValue & ~mask) | bits)
    }
}
