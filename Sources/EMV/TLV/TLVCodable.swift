/// A typed EMV value that reads itself from a parsed data object and writes itself as one: the typed layer over
/// ``TLV``, in the manner of swift-asn1's `DERImplicitlyTaggable`.
///
/// ```swift
/// let gpo = try TLV.parseOne(response.data)
/// let aip = try gpo.first(ApplicationInterchangeProfile.self)              // tag 82; nil when absent
/// let currency = try Currency(tlv: node, tag: .applicationCurrencyCode)  // 9F42 instead of the default 5F2A
/// var serializer = TLV.Serializer()
/// try TerminalVerificationResults.offlineDataAuthenticationNotPerformed.serialize(into: &serializer)
/// ```
///
/// A conforming type names its tag and converts its value bytes; the protocol adds the tag check and the
/// serializer call. Reading throws ``TLVError/unexpectedTag`` for a data object with another tag, and the type's
/// own errors (``ValueError`` for the types in this module) for a malformed value, with offsets into the parsed
/// input.
public protocol TLVCodable {
    /// The tag the value has unless the caller names another: `82` for the AIP, `5F2A` for a currency.
    static var defaultTag: Tag { get }

    /// Decodes a data object's value: the bytes after its tag and length.
    init(tlvValue value: ArraySlice<UInt8>) throws

    /// The bytes to write after the tag and length.
    var tlvValue: [UInt8] { get }
}

extension TLVCodable {
    /// Decodes the value of `node`, checking that its tag is `tag`.
    ///
    /// - Throws: ``TLVError/unexpectedTag`` at the object's offset, or the error of ``init(tlvValue:)`` with its
    ///   offset counted from the start of the parsed input.
    public init(tlv node: TLVNode, tag: Tag = Self.defaultTag) throws {
        self = try node.decodeValue(expecting: tag) { try Self(tlvValue: $0) }
    }

    /// Appends the value as a data object with tag `tag`.
    ///
    /// - Throws: ``TLVError/invalidTag`` for a malformed tag, ``TLVError/lengthTooLong`` above 65535 bytes.
    public func serialize(into serializer: inout TLV.Serializer, tag: Tag = Self.defaultTag) throws {
        try serializer.append(tag: tag, value: tlvValue)
    }
}

/// An error whose offset counts from the start of a value; ``TLVNode/decodeValue(expecting:_:)`` moves it to count
/// from the start of the parsed input, as the codec's own offsets do.
protocol RelocatableError: Error {
    /// The same error with its offset (if any) moved by `distance` bytes.
    func relocated(by distance: Int) -> any Error
}
