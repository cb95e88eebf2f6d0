extension TLVNode {
    /// The value bytes, after checking that the object's tag is `expected`.
    ///
    /// - Throws: ``TLVError/unexpectedTag``, at the object's offset, when it has another tag.
    public func value(expecting expected: Tag) throws(TLVError) -> ArraySlice<UInt8> {
        guard tag == expected else {
            throw TLVError(code: .unexpectedTag, offset: offset, message: "expected tag \(expected), found \(tag)")
        }
        return value
    }

    /// The first object with `type`'s tag (or `tag`) inside this one, at any depth, decoded; nil when there is none.
    ///
    /// - Throws: the errors of ``TLVCodable/init(tlv:tag:)`` when the object is malformed.
    public func first<Value: TLVCodable>(_ type: Value.Type, tag: Tag = Value.defaultTag) throws -> Value? {
        try children.first(type, tag: tag)
    }

    /// Checks the tag and decodes the value with `decode`; an error with an offset into the value is rethrown with
    /// the offset into the parsed input.
    func decodeValue<Value>(expecting tag: Tag, _ decode: (ArraySlice<UInt8>) throws -> Value) throws -> Value {
        let value = try value(expecting: tag)
        do {
            return try decode(value)
        } catch let error as any RelocatableError {
            throw error.relocated(by: valueOffset)
        }
    }
}
