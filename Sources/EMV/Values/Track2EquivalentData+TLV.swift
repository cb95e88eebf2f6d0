extension Track2EquivalentData: TLVCodable {
    /// Tag 57.
    public static let defaultTag = Tag.track2EquivalentData

    /// Decodes the value as ``init(bytes:requireLuhn:)`` does, with the Luhn check.
    public init(tlvValue value: ArraySlice<UInt8>) throws {
        try self.init(bytes: value)
    }

    /// The value's bytes, ``bytes``.
    public var tlvValue: [UInt8] { bytes }
}
