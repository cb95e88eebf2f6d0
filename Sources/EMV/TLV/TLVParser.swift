/// One parsed object in the flat, depth-first list a parse produces; nodes are views computed from it.
struct ParsedNode: Sendable {
    /// The object's tag.
    var tag: Tag
    /// Offset of the tag's first byte from the start of the input.
    var offset: Int
    /// Offset of the value's first byte from the start of the input.
    var valueOffset: Int
    /// Length of the value in bytes.
    var valueLength: Int
    /// Nesting depth; top-level objects are at depth 1.
    var depth: Int
    /// Index of the enclosing constructed object in the list, or -1 at the top level.
    var parent: Int
    /// How many objects follow this one in the list that lie inside it (all levels); 0 for primitives.
    var descendantCount: Int

    /// Offset just past the value.
    var end: Int { valueOffset + valueLength }
}

/// The parser behind ``TLV/parse(_:rules:maximumDepth:)-(ArraySlice<UInt8>,_,_)``: one pass, no recursion, one
/// array for all nodes, so arbitrarily deep or long input cannot exhaust the stack and costs no per-node allocation.
enum TLVParser {
    static func parse(
        _ bytes: ArraySlice<UInt8>, rules: EncodingRules, maximumDepth: Int, single: Bool
    ) throws(TLVError) -> [ParsedNode] {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(TLVError) -> [ParsedNode] in
                try parse(buffer, rules: rules, maximumDepth: maximumDepth, single: single)
            }
        }
        return try result.get()
    }

    private static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, rules: EncodingRules, maximumDepth: Int, single: Bool
    ) throws(TLVError) -> [ParsedNode] {
        let count = buffer.count
        let reader = TLVReader(buffer: buffer, rules: rules)
        var nodes: [ParsedNode] = []
        nodes.reserveCapacity(count / 4 + 1)
        var position = 0
        var parent = -1
        var depth = 1
        var end = count
        while true {
            if position == end {
                guard parent >= 0 else { break }
                // The enclosing constructed object is complete: record its extent and return to its level.
                nodes[parent].descendantCount = nodes.count - parent - 1
                parent = nodes[parent].parent
                depth -= 1
                end = parent < 0 ? count : nodes[parent].end
                continue
            }
            let byte = buffer[position]
            let isPaddingByte = byte == 0x00 || byte == 0xFF
            if single && parent < 0 && !nodes.isEmpty {
                if rules.allowsPadding && isPaddingByte {
                    position += 1
                    continue
                }
                throw error(.trailingBytes, at: position, "\(count - position) bytes follow the data object")
            }
            if isPaddingByte {
                if rules.allowsPadding {
                    position += 1
                    continue
                }
                // `FF` also starts private constructed tags (`FF8101`), so it counts as padding only before the
                // end, `00` or another `FF`.
                if byte == 0x00 || position + 1 == end || buffer[position + 1] == 0x00 || buffer[position + 1] == 0xFF {
                    throw error(
                        .paddingNotAllowed, at: position, "padding byte \([byte].hexString); strict rules forbid it")
                }
            }
            guard depth <= maximumDepth else {
                throw error(
                    .depthExceeded, at: position, "an object at nesting depth \(depth); the maximum is \(maximumDepth)")
            }
            let (tag, tagSize) = try reader.readTag(at: position, limit: end)
            let (length, lengthSize) = try reader.readLength(at: position + tagSize, limit: end, tag: tag)
            let valueOffset = position + tagSize + lengthSize
            guard length <= end - valueOffset else {
                throw error(
                    .lengthExceedsData, at: position + tagSize,
                    "tag \(tag) declares \(length) value bytes but only \(end - valueOffset) remain"
                        + (parent < 0 ? "" : " in its enclosing object"))
            }
            nodes.append(
                ParsedNode(
                    tag: tag, offset: position, valueOffset: valueOffset, valueLength: length, depth: depth,
                    parent: parent, descendantCount: 0))
            if byte & 0x20 != 0 {
                parent = nodes.count - 1
                depth += 1
                end = valueOffset + length
                position = valueOffset
            } else {
                position = valueOffset + length
            }
        }
        if single && nodes.isEmpty {
            throw error(.truncatedTag, at: count, "expected a data object, found none")
        }
        return nodes
    }

    /// Builds errors out of line, keeping the parse loop small.
    @inline(never)
    private static func error(_ code: TLVError.Code, at offset: Int, _ message: @autoclosure () -> String) -> TLVError {
        TLVError(code: code, offset: offset, message: message())
    }
}
