/// Where ``DataObjectList/relatedData(from:kernel:dictionary:)`` finds the values a list asks for.
public protocol DOLValueSource {
    /// The value of `tag`, or nil when the source does not have it (the list then gets zeros).
    func value(for tag: Tag) -> ArraySlice<UInt8>?
}

extension Dictionary: DOLValueSource where Key == Tag, Value == [UInt8] {
    /// The stored value for `tag`.
    public func value(for tag: Tag) -> ArraySlice<UInt8>? { self[tag]?[...] }
}

extension TLVNodeCollection: DOLValueSource {
    /// The value of the first primitive object with `tag` at any depth.
    public func value(for tag: Tag) -> ArraySlice<UInt8>? {
        guard !tag.isConstructed else { return nil }
        return first(tag)?.value
    }
}
