public import EMV

extension ISO8583Message {
    /// Field 55 (ICC data) parsed as BER-TLV with EMV's parser; nil when the field is absent.
    ///
    /// Accepts the field as bytes (binary specifications) or hex text (`default_ascii`).
    /// - Throws: ``EMV/TLVError`` when the field is not well-formed BER-TLV, or ``EMV/TLVError`` `truncatedTag` when
    ///   a text field 55 is not hex.
    public func iccData(rules: EncodingRules = .strict) throws(TLVError) -> TLVNodeCollection? {
        guard let value = self[.iccData] else { return nil }
        guard let bytes = value.bytes else {
            throw TLVError(code: .truncatedTag, offset: 0, message: "field 55 is text that is not hex")
        }
        return try TLV.parse(bytes, rules: rules)
    }

    /// Sets field 55 to encoded data objects (for example a `TLV.Serializer`'s output).
    public mutating func setICCData(_ bytes: [UInt8]) {
        self[.iccData] = .binary(bytes)
    }
}
