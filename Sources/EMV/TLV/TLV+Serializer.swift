extension TLV {
    /// Writes BER-TLV with minimal lengths (one byte up to 127, `81 xx` up to 255, `82 xx xx` up to 65535): the
    /// canonical form ``EncodingRules/strict`` parsing accepts.
    ///
    /// ```swift
    /// var serializer = TLV.Serializer()
    /// try serializer.appendConstructed(tag: .responseMessageTemplateFormat2) { template in
    ///     try template.append(tag: .applicationInterchangeProfile, value: [0x20, 0x00])
    /// }
    /// ```
    /// A failed call leaves the output as it was before the call. Methods that take a closure throw untyped errors,
    /// so closures need no annotation: their own failures are ``TLVError``s, and the closure's errors pass through.
    public struct Serializer: Sendable {
        /// The encoding written so far.
        public private(set) var bytes: [UInt8]

        /// Creates an empty serializer.
        public init() {
            bytes = []
        }

        /// Creates an empty serializer with room for `capacity` bytes.
        public init(capacity: Int) {
            bytes = []
            bytes.reserveCapacity(capacity)
        }

        /// Serializes what `body` appends and returns the bytes.
        public static func serialize(_ body: (inout Serializer) throws -> Void) throws -> [UInt8] {
            var serializer = Serializer()
            try body(&serializer)
            return serializer.bytes
        }

        /// Appends a data object with `value` as its value bytes.
        ///
        /// For a constructed tag the value must itself be encoded data objects; prefer
        /// ``appendConstructed(tag:_:)``.
        /// - Throws: ``TLVError/invalidTag`` for a malformed tag, ``TLVError/lengthTooLong`` above 65535 bytes.
        public mutating func append(tag: Tag, value: some Collection<UInt8>) throws(TLVError) {
            let start = bytes.count
            try appendHeader(tag: tag, length: value.count, at: start)
            bytes.append(contentsOf: value)
        }

        /// Appends a constructed data object whose value is whatever `body` appends.
        /// - Throws: ``TLVError/invalidTag`` when `tag` is malformed or primitive, ``TLVError/lengthTooLong`` when
        ///   the contents exceed 65535 bytes, and whatever `body` throws.
        public mutating func appendConstructed(tag: Tag, _ body: (inout Serializer) throws -> Void) throws {
            let start = bytes.count
            try checkConstructed(tag, at: start)
            tag.appendBytes(to: &bytes)
            bytes.append(0)  // length placeholder, widened once the contents are known
            do {
                try body(&self)
                try closeConstructed(start: start, valueStart: start + tag.byteCount + 1)
            } catch {
                bytes.removeSubrange(start...)
                throw error
            }
        }

        /// Appends a parsed node re-encoded canonically: padding dropped, every length in its shortest form.
        public mutating func append(_ node: TLVNode) throws(TLVError) {
            try append(
                nodes: node.nodes, input: node.input,
                range: node.position..<(node.position + 1 + node.nodes[node.position].descendantCount))
        }

        /// Appends every node of a collection re-encoded canonically; see ``append(_:)-(TLVNode)``.
        public mutating func append(_ nodes: TLVNodeCollection) throws(TLVError) {
            try append(nodes: nodes.nodes, input: nodes.input, range: nodes.range)
        }

        /// Walks the depth-first node list without recursion, so any nesting the parser accepted serializes.
        private mutating func append(nodes: [ParsedNode], input: ArraySlice<UInt8>, range: Range<Int>) throws(TLVError)
        {
            let start = bytes.count
            // Open constructed objects: where their encoding starts, where their value starts, and the node
            // position just past their last descendant.
            var open: [(start: Int, valueStart: Int, endPosition: Int)] = []
            do throws(TLVError) {
                for position in range {
                    try close(&open, before: position)
                    let node = nodes[position]
                    if node.tag.isConstructed {
                        let objectStart = bytes.count
                        try checkConstructed(node.tag, at: objectStart)
                        node.tag.appendBytes(to: &bytes)
                        bytes.append(0)
                        open.append((objectStart, bytes.count, position + 1 + node.descendantCount))
                    } else {
                        let valueStart = input.startIndex + node.valueOffset
                        try append(tag: node.tag, value: input[valueStart..<valueStart + node.valueLength])
                    }
                }
                try close(&open, before: range.upperBound)
            } catch {
                bytes.removeSubrange(start...)
                throw error
            }
        }

        private mutating func close(
            _ open: inout [(start: Int, valueStart: Int, endPosition: Int)], before position: Int
        ) throws(TLVError) {
            while let last = open.last, last.endPosition <= position {
                open.removeLast()
                try closeConstructed(start: last.start, valueStart: last.valueStart)
            }
        }

        /// Rewrites the one-byte placeholder before `valueStart` with the real length, widening it if needed.
        private mutating func closeConstructed(start: Int, valueStart: Int) throws(TLVError) {
            let length = bytes.count - valueStart
            let field = try Self.lengthField(length, at: start)
            bytes[valueStart - 1] = field.first
            if field.count > 1 {
                bytes.insert(contentsOf: field.subsequent, at: valueStart)
            }
        }

        private mutating func appendHeader(tag: Tag, length: Int, at start: Int) throws(TLVError) {
            guard tag.isWellFormed else {
                throw TLVError(code: .invalidTag, offset: start, message: "\(tag) is not a well-formed EMV tag")
            }
            let field = try Self.lengthField(length, at: start)
            tag.appendBytes(to: &bytes)
            bytes.append(field.first)
            if field.count > 1 { bytes.append(contentsOf: field.subsequent) }
        }

        private func checkConstructed(_ tag: Tag, at start: Int) throws(TLVError) {
            guard tag.isWellFormed, tag.isConstructed else {
                throw TLVError(
                    code: .invalidTag, offset: start, message: "\(tag) is not a well-formed constructed EMV tag")
            }
        }

        /// The minimal length field for `length`: first byte, the bytes after it, and the total count.
        private static func lengthField(
            _ length: Int, at start: Int
        ) throws(TLVError) -> (first: UInt8, subsequent: [UInt8], count: Int) {
            switch length {
            case 0..<0x80: return (UInt8(length), [], 1)
            case 0x80..<0x100: return (0x81, [UInt8(length)], 2)
            case 0x100..<0x10000: return (0x82, [UInt8(length >> 8), UInt8(length & 0xFF)], 3)
            default:
                throw TLVError(
                    code: .lengthTooLong, offset: start,
                    message: "a value of \(length) bytes needs a length field longer than EMV's 3 bytes")
            }
        }
    }
}
