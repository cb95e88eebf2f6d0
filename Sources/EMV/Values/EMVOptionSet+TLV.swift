extension EMVOptionSet {
    /// Decodes the value as ``init(bytes:)`` does.
    public init(tlvValue value: ArraySlice<UInt8>) throws {
        try self.init(bytes: value)
    }

    /// The value's bytes, ``bytes``.
    public var tlvValue: [UInt8] { bytes }
}
