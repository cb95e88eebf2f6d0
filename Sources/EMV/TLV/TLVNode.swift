/// One parsed data object: its tag and views over the caller's bytes for its value and its whole encoding.
///
/// Nodes copy nothing: ``value`` and ``encoded`` are slices of the parsed input (their indices are the input's),
/// and ``children`` is a view over the parse's node list. A node's description names its tag, length and
/// offset but never shows the value, so logging a node cannot leak a PAN.
public struct TLVNode: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let input: ArraySlice<UInt8>
    let nodes: [ParsedNode]
    let position: Int

    init(input: ArraySlice<UInt8>, nodes: [ParsedNode], position: Int) {
        self.input = input
        self.nodes = nodes
        self.position = position
    }

    private var parsed: ParsedNode { nodes[position] }

    /// The object's tag.
    public var tag: Tag { parsed.tag }

    /// The value bytes: for a constructed object, the encoding of its children.
    public var value: ArraySlice<UInt8> {
        let node = parsed
        let start = input.startIndex + node.valueOffset
        return input[start..<start + node.valueLength]
    }

    /// The whole encoding: tag, length and value, exactly as it appeared in the input.
    public var encoded: ArraySlice<UInt8> {
        let node = parsed
        return input[(input.startIndex + node.offset)..<(input.startIndex + node.end)]
    }

    /// Offset of the tag's first byte from the start of the parsed input.
    public var offset: Int { parsed.offset }

    /// Offset of the value's first byte from the start of the parsed input.
    public var valueOffset: Int { parsed.valueOffset }

    /// Length of the value in bytes.
    public var length: Int { parsed.valueLength }

    /// Nesting depth; top-level objects are at depth 1.
    public var depth: Int { parsed.depth }

    /// Whether the object is constructed (its value is a series of data objects).
    public var isConstructed: Bool { parsed.tag.isConstructed }

    /// The objects directly inside this one, in order; empty for a primitive object.
    public var children: TLVNodeCollection {
        TLVNodeCollection(input: input, nodes: nodes, range: (position + 1)..<(position + 1 + parsed.descendantCount))
    }

    /// The first object with `tag` inside this one, at any depth, in encoding order.
    public func first(_ tag: Tag) -> TLVNode? {
        children.first(tag)
    }

    /// `<tag> (<n> bytes) at offset <offset>`, without the value.
    public var description: String {
        "\(tag) (\(length) bytes\(isConstructed ? ", constructed" : "")) at offset \(offset)"
    }

    /// Same as ``description``: never shows value bytes.
    public var debugDescription: String { "TLVNode(\(description))" }

    /// A mirror without value bytes, so `dump(node)` cannot leak card data either.
    public var customMirror: Mirror {
        Mirror(self, children: ["tag": tag, "length": length, "offset": offset], displayStyle: .struct)
    }
}
