/// The data objects at one level of a parse (the top level, or the children of a constructed object).
///
/// A view over the parse's flat node list: iterating it skips over each object's descendants in constant time,
/// and ``first(_:)`` searches all levels below.
public struct TLVNodeCollection: Collection, Sendable, CustomStringConvertible {
    let input: ArraySlice<UInt8>
    let nodes: [ParsedNode]
    /// The span of `nodes` holding this level's objects and all their descendants.
    let range: Range<Int>

    init(input: ArraySlice<UInt8>, nodes: [ParsedNode], range: Range<Int>) {
        self.input = input
        self.nodes = nodes
        self.range = range
    }

    /// A position in the collection.
    public struct Index: Comparable, Sendable {
        let position: Int

        /// Orders positions in encoding order.
        public static func < (lhs: Index, rhs: Index) -> Bool { lhs.position < rhs.position }
    }

    /// The first object's position.
    public var startIndex: Index { Index(position: range.lowerBound) }

    /// The position past the last object.
    public var endIndex: Index { Index(position: range.upperBound) }

    /// The position of the next object at this level.
    public func index(after index: Index) -> Index {
        Index(position: index.position + 1 + nodes[index.position].descendantCount)
    }

    /// The object at `index`.
    public subscript(index: Index) -> TLVNode {
        TLVNode(input: input, nodes: nodes, position: index.position)
    }

    /// The first object with `tag` at this level or below, depth-first in encoding order.
    public func first(_ tag: Tag) -> TLVNode? {
        // A plain scan of the flat list; through a buffer pointer so the loop does no reference counting.
        let found = nodes.withUnsafeBufferPointer { buffer in range.first { buffer[$0].tag == tag } }
        return found.map { TLVNode(input: input, nodes: nodes, position: $0) }
    }

    /// Every object with `tag` at this level or below, depth-first in encoding order.
    public func all(_ tag: Tag) -> [TLVNode] {
        range.lazy.filter { nodes[$0].tag == tag }.map { TLVNode(input: input, nodes: nodes, position: $0) }
    }

    /// Every object at this level and below, depth-first in encoding order (parents before their children).
    public var allDescendants: [TLVNode] {
        range.map { TLVNode(input: input, nodes: nodes, position: $0) }
    }

    /// The tags at this level, without values.
    public var description: String { "[" + map(\.tag.description).joined(separator: ", ") + "]" }
}
