extension ExpiryDate: TLVCodable {
    /// Tag 5F24, Application Expiration Date.
    public static let defaultTag = Tag.applicationExpirationDate

    /// Decodes the n6 date `YYMMDD` of tag 5F24, which must exist, and keeps its month.
    public init(tlvValue value: ArraySlice<UInt8>) throws {
        let date = try EMVDate(n6: value)
        try self.init(year: date.year, month: date.month)
    }

    /// The n6 encoding of ``lastDay``: cards put the month's last day in tag 5F24.
    public var tlvValue: [UInt8] { lastDay.n6 }
}
