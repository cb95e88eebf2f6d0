/// BER-TLV as EMV uses it (EMV Book 3, Annex B): parsing into zero-copy nodes and serializing with minimal lengths.
///
/// ```swift
/// let nodes = try TLV.parse(response.data, rules: .lenient)
/// let aip = nodes.first(.applicationInterchangeProfile)?.value
/// ```
public enum TLV {
    /// The nesting depth parsers allow unless told otherwise; EMV data nests at most four levels
    /// (`6F` › `A5` › `BF0C` › `61` › primitive).
    public static let defaultMaximumDepth = 16

    /// Parses a series of data objects (for example a response APDU's data field).
    ///
    /// The nodes are views over `bytes` (no copies); their offsets count from `bytes.startIndex`.
    /// - Parameters:
    ///   - bytes: the encoded data objects.
    ///   - rules: ``EncodingRules/strict`` (the default) or ``EncodingRules/lenient``.
    ///   - maximumDepth: the deepest nesting accepted; top-level objects are at depth 1.
    /// - Throws: ``TLVError`` naming the problem and its offset.
    public static func parse(
        _ bytes: ArraySlice<UInt8>, rules: EncodingRules = .strict, maximumDepth: Int = defaultMaximumDepth
    ) throws(TLVError) -> TLVNodeCollection {
        let nodes = try TLVParser.parse(bytes, rules: rules, maximumDepth: maximumDepth, single: false)
        return TLVNodeCollection(input: bytes, nodes: nodes, range: 0..<nodes.count)
    }

    /// Parses a series of data objects; see ``parse(_:rules:maximumDepth:)-(ArraySlice<UInt8>,_,_)``.
    public static func parse(
        _ bytes: [UInt8], rules: EncodingRules = .strict, maximumDepth: Int = defaultMaximumDepth
    ) throws(TLVError) -> TLVNodeCollection {
        try parse(bytes[...], rules: rules, maximumDepth: maximumDepth)
    }

    /// Parses exactly one data object (for example a GET PROCESSING OPTIONS response template).
    ///
    /// Under lenient rules padding may surround the object.
    /// - Throws: ``TLVError/trailingBytes`` when anything but padding follows the object, ``TLVError/truncatedTag``
    ///   when there is no object, and any other ``TLVError`` from parsing the object.
    public static func parseOne(
        _ bytes: ArraySlice<UInt8>, rules: EncodingRules = .strict, maximumDepth: Int = defaultMaximumDepth
    ) throws(TLVError) -> TLVNode {
        let nodes = try TLVParser.parse(bytes, rules: rules, maximumDepth: maximumDepth, single: true)
        return TLVNode(input: bytes, nodes: nodes, position: 0)
    }

    /// Parses exactly one data object; see ``parseOne(_:rules:maximumDepth:)-(ArraySlice<UInt8>,_,_)``.
    public static func parseOne(
        _ bytes: [UInt8], rules: EncodingRules = .strict, maximumDepth: Int = defaultMaximumDepth
    ) throws(TLVError) -> TLVNode {
        try parseOne(bytes[...], rules: rules, maximumDepth: maximumDepth)
    }
}
