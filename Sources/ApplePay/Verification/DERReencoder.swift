import SwiftASN1

/// Re-encodes a parsed BER node as DER: definite minimal lengths, SET OF elements sorted.
///
/// CMS signs the DER encoding of the signed attributes (RFC 5652 §5.4) even when the message around them is BER,
/// so the verifier must hash that encoding, not the bytes as received.
enum DERReencoder {
    /// The DER encoding of `node`, with its identifier octets replaced by `identifierOctets` when given (the
    /// signed attributes are sent as `[0] IMPLICIT` but signed as a universal SET).
    static func encode(_ node: ASN1Node, identifierOctets: [UInt8]? = nil) throws -> [UInt8] {
        var output: [UInt8] = []
        try encode(node, identifierOctets: identifierOctets, into: &output)
        return output
    }

    private static func encode(_ node: ASN1Node, identifierOctets: [UInt8]?, into output: inout [UInt8]) throws {
        let identifier = try identifierOctets ?? Self.identifierOctets(of: node)
        var content: [UInt8] = []
        switch node.content {
        case .primitive(let bytes):
            content = Array(bytes)
        case .constructed(let children):
            var encodings = try children.map { child in try encode(child) }
            // A SET's elements are ordered by their encodings in DER (X.690 §11.6).
            if (identifier.first ?? 0) & 0x1F == 0x11 || identifierOctets == [0x31] {
                encodings.sort { $0.lexicographicallyPrecedes($1) }
            }
            content = encodings.flatMap { $0 }
        }
        output += identifier
        appendLength(content.count, to: &output)
        output += content
    }

    /// The identifier octets as they were received (one byte, or more for high tag numbers).
    private static func identifierOctets(of node: ASN1Node) throws -> [UInt8] {
        let bytes = node.encodedBytes
        guard let first = bytes.first else { throw ASN1Error.truncatedASN1Field() }
        guard first & 0x1F == 0x1F else { return [first] }
        var octets = [first]
        for byte in bytes.dropFirst() {
            octets.append(byte)
            if byte & 0x80 == 0 { return octets }
        }
        throw ASN1Error.truncatedASN1Field()
    }

    private static func appendLength(_ length: Int, to output: inout [UInt8]) {
        if length < 0x80 {
            output.append(UInt8(length))
            return
        }
        var bytes: [UInt8] = []
        var remaining = length
        while remaining > 0 {
            bytes.insert(UInt8(remaining & 0xFF), at: 0)
            remaining >>= 8
        }
        output.append(0x80 | UInt8(bytes.count))
        output += bytes
    }
}
