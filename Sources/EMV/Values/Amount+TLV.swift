// Not TLVCodable: an n12 amount does not say its currency, so reading one takes the currency from elsewhere
// (Transaction Currency Code 5F2A, or Application Currency Code 9F42 for amounts the card holds).
extension Amount {
    /// Decodes the n12 value of `node` in `currency`'s minor units, checking that its tag is `tag`: Amount,
    /// Authorised (9F02, the default) or Amount, Other (9F03).
    ///
    /// - Throws: ``TLVError/unexpectedTag``, or a ``ValueError`` with the offset in the parsed input.
    public init(tlv node: TLVNode, currency: Currency, tag: Tag = .amountAuthorised) throws {
        self = try node.decodeValue(expecting: tag) { try Amount(n12: $0, currency: currency) }
    }

    /// Appends the ``n12()`` encoding as a data object with tag `tag` (9F02 unless told otherwise).
    ///
    /// - Throws: ``ValueError/Code/amountOutOfRange`` for an amount n12 cannot hold.
    public func serialize(into serializer: inout TLV.Serializer, tag: Tag = .amountAuthorised) throws {
        try serializer.append(tag: tag, value: n12())
    }
}
