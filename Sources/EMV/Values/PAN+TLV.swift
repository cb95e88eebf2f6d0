extension PAN: TLVCodable {
    /// Tag 5A, Application PAN.
    public static let defaultTag = Tag.applicationPAN

    /// Decodes the value as ``init(bcd:requireLuhn:)`` does, with the Luhn check.
    public init(tlvValue value: ArraySlice<UInt8>) throws {
        try self.init(bcd: value)
    }

    /// The value's bytes, ``bcd``.
    public var tlvValue: [UInt8] { bcd }
}
