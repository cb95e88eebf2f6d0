extension TLVNodeCollection {
    /// The first object with `type`'s tag (or `tag`) at this level or below, decoded; nil when there is none.
    ///
    /// - Throws: the errors of `type`'s ``TLVCodable/init(tlv:tag:)`` when the object is malformed.
    public func first<Value: TLVCodable>(_ type: Value.Type, tag: Tag = Value.defaultTag) throws -> Value? {
        try first(tag).map { try Value(tlv: $0, tag: tag) }
    }
}
