import SwiftASN1

extension DER.Serializer {
    /// Appends a constructed node with BER's indefinite length form (`80` … end-of-contents `00 00`), as Apple's
    /// token signatures have; swift-asn1 writes only definite lengths, so this writes the framing bytes itself.
    ///
    /// Only low tag numbers (below 31) occur in CMS, so the identifier is one byte.
    mutating func appendIndefiniteConstructedNode(
        identifier: ASN1Identifier, _ body: (inout DER.Serializer) throws -> Void
    ) rethrows {
        precondition(identifier.tagNumber < 31, "high tag numbers do not occur in CMS")
        let classBits: UInt8 =
            switch identifier.tagClass {
            case .universal: 0x00
            case .application: 0x40
            case .contextSpecific: 0x80
            case .private: 0xC0
            }
        serializeRawBytes([classBits | 0x20 | UInt8(identifier.tagNumber), 0x80])
        try body(&self)
        serializeRawBytes([0x00, 0x00])
    }
}
