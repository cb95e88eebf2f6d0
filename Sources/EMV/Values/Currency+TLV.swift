extension Currency: TLVCodable {
    /// Tag 5F2A, Transaction Currency Code; pass `tag:` for Application Currency Code (9F42).
    public static let defaultTag = Tag.transactionCurrencyCode

    /// Decodes the value as ``init(emvCode:)`` does.
    public init(tlvValue value: ArraySlice<UInt8>) throws {
        try self.init(emvCode: value)
    }

    /// The value's bytes, ``emvCode``.
    public var tlvValue: [UInt8] { emvCode }
}
