/// A data object list (PDOL, CDOL1, CDOL2, DDOL, TDOL, UDOL): the tags and lengths of the data a card asks the
/// terminal to send, without values (EMV Book 3 section 5.4).
///
/// ```swift
/// let pdol = try DataObjectList(fci.first(.pdol)!.value)
/// let data = pdol.relatedData(kernel: .c3) { tag in terminalData[tag] }
/// ```
public struct DataObjectList: RandomAccessCollection, Hashable, Sendable, CustomStringConvertible {
    /// One entry: a tag and the number of value bytes the card expects for it.
    public struct Entry: Hashable, Sendable {
        /// The data object asked for.
        public var tag: Tag
        /// How many bytes of it the card expects.
        public var length: Int

        /// Creates an entry.
        public init(tag: Tag, length: Int) {
            self.tag = tag
            self.length = length
        }
    }

    /// The entries in order.
    public private(set) var entries: [Entry]

    /// Creates a list from entries.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Parses a list: each entry is a BER-TLV tag followed by a BER-TLV length, with no value.
    /// - Parameters:
    ///   - bytes: the list's encoding, such as the value of tag 9F38 (PDOL) or 8C (CDOL1).
    ///   - rules: ``EncodingRules/strict`` rejects lengths in a longer form than needed; padding is never allowed
    ///     in a list.
    /// - Throws: ``TLVError`` with the offset of the bad entry: ``TLVError/truncatedTag``,
    ///   ``TLVError/tagTooLong``, ``TLVError/invalidTag`` (a `00` or `FF` byte where a tag starts),
    ///   ``TLVError/truncatedLength``, ``TLVError/indefiniteLength``, ``TLVError/lengthTooLong`` or
    ///   ``TLVError/nonMinimalLength``.
    public init(_ bytes: ArraySlice<UInt8>, rules: EncodingRules = .strict) throws(TLVError) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(TLVError) -> [Entry] in try Self.parse(buffer, rules: rules) }
        }
        entries = try result.get()
    }

    /// Parses a list; see ``init(_:rules:)-(ArraySlice<UInt8>,_)``.
    public init(_ bytes: [UInt8], rules: EncodingRules = .strict) throws(TLVError) {
        try self.init(bytes[...], rules: rules)
    }

    private static func parse(_ buffer: UnsafeBufferPointer<UInt8>, rules: EncodingRules) throws(TLVError) -> [Entry] {
        let reader = TLVReader(buffer: buffer, rules: rules)
        var entries: [Entry] = []
        entries.reserveCapacity(buffer.count / 2)
        var position = 0
        while position < buffer.count {
            let (tag, tagSize) = try reader.readTag(at: position, limit: buffer.count)
            guard tag.isWellFormed else {
                throw TLVError(
                    code: .invalidTag, offset: position, message: "\(tag) is not a valid tag in a data object list")
            }
            let (length, lengthSize) = try reader.readLength(at: position + tagSize, limit: buffer.count, tag: tag)
            entries.append(Entry(tag: tag, length: length))
            position += tagSize + lengthSize
        }
        return entries
    }

    /// The list's encoding: each tag followed by its length in the shortest form.
    public var bytes: [UInt8] {
        var result: [UInt8] = []
        for entry in entries {
            entry.tag.appendBytes(to: &result)
            if entry.length >= 0x100 {
                result += [0x82, UInt8(truncatingIfNeeded: entry.length >> 8)]
            } else if entry.length >= 0x80 {
                result.append(0x81)
            }
            result.append(UInt8(truncatingIfNeeded: entry.length))
        }
        return result
    }

    /// The length of the related data: the sum of the entries' lengths.
    public var relatedDataLength: Int { entries.reduce(0) { $0 + $1.length } }

    /// The first entry's position.
    public var startIndex: Int { entries.startIndex }

    /// The position past the last entry.
    public var endIndex: Int { entries.endIndex }

    /// The entry at `position`.
    public subscript(position: Int) -> Entry { entries[position] }

    /// `9F66(4) 9F02(6) ...`.
    public var description: String { entries.map { "\($0.tag)(\($0.length))" }.joined(separator: " ") }
}
