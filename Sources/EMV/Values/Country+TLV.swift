extension Country: TLVCodable {
    /// Tag 9F1A, Terminal Country Code; pass `tag:` for Issuer Country Code (5F28).
    public static let defaultTag = Tag.terminalCountryCode

    /// Decodes the value as ``init(emvCode:)`` does.
    public init(tlvValue value: ArraySlice<UInt8>) throws {
        try self.init(emvCode: value)
    }

    /// The value's bytes, ``emvCode``.
    public var tlvValue: [UInt8] { emvCode }
}
