extension EMVDate: TLVCodable {
    /// Tag 9A, Transaction Date; pass `tag:` for Application Expiration Date (5F24) or Effective Date (5F25).
    public static let defaultTag = Tag.transactionDate

    /// Decodes the value as ``init(n6:)`` does.
    public init(tlvValue value: ArraySlice<UInt8>) throws {
        try self.init(n6: value)
    }

    /// The value's bytes, ``n6``.
    public var tlvValue: [UInt8] { n6 }
}
