/// A BER element located in a byte array without parsing its contents: identifier, where its contents are, where it
/// ends (after the end-of-contents octets of an indefinite length).
///
/// A token's signature is mostly its two certificates (hundreds of DER nodes each) that the verifier only slices out
/// for its chain cache; walking the CMS outline with this, and handing swift-asn1 only the small parts it must
/// understand, keeps those nodes from being parsed on every token.
struct BEROutline {
    /// The first identifier octet (low tag numbers only: the CMS structures use no others).
    let identifier: UInt8
    /// The first byte of the element (its identifier).
    let start: Int
    /// The range of the contents, without end-of-contents octets.
    let contents: Range<Int>
    /// One past the element's last byte.
    let end: Int

    /// Whether the element is constructed.
    var isConstructed: Bool { identifier & 0x20 != 0 }

    /// The deepest nesting of indefinite lengths followed before the bytes are called malformed.
    static let maximumDepth = 16

    /// The element that starts at `start` and ends at or before `limit`.
    /// - Throws: ``ApplePayError/Code/signatureMalformed`` for truncated or malformed BER.
    static func element(in bytes: [UInt8], at start: Int, limit: Int, depth: Int = 0) throws -> BEROutline {
        guard depth <= maximumDepth, start >= 0, limit <= bytes.count, start + 2 <= limit else {
            throw PaymentSignature.malformed("the signature is not valid BER")
        }
        let identifier = bytes[start]
        // High tag numbers (0x1F) never occur in CMS.
        guard identifier & 0x1F != 0x1F else { throw PaymentSignature.malformed("the signature is not valid BER") }
        let lengthOctet = bytes[start + 1]
        var position = start + 2
        if lengthOctet == 0x80 {
            // Indefinite: constructed contents up to the end-of-contents octets 00 00.
            guard identifier & 0x20 != 0 else { throw PaymentSignature.malformed("the signature is not valid BER") }
            while true {
                guard position + 2 <= limit else { throw PaymentSignature.malformed("the signature is not valid BER") }
                if bytes[position] == 0, bytes[position + 1] == 0 {
                    return BEROutline(
                        identifier: identifier, start: start, contents: (start + 2)..<position, end: position + 2)
                }
                position = try element(in: bytes, at: position, limit: limit, depth: depth + 1).end
            }
        }
        var length = Int(lengthOctet)
        if lengthOctet > 0x80 {
            let count = Int(lengthOctet & 0x7F)
            guard count <= 4, position + count <= limit else {
                throw PaymentSignature.malformed("the signature is not valid BER")
            }
            length = 0
            for byte in bytes[position..<(position + count)] { length = length << 8 | Int(byte) }
            position += count
        }
        guard length <= limit - position else { throw PaymentSignature.malformed("the signature is not valid BER") }
        return BEROutline(
            identifier: identifier, start: start, contents: position..<(position + length), end: position + length)
    }

    /// The elements directly inside this constructed one.
    /// - Throws: ``ApplePayError/Code/signatureMalformed`` when it is primitive or its contents are malformed.
    func children(in bytes: [UInt8]) throws -> [BEROutline] {
        guard isConstructed else { throw PaymentSignature.malformed("the signature is not valid BER") }
        var children: [BEROutline] = []
        var position = contents.lowerBound
        while position < contents.upperBound {
            let child = try Self.element(in: bytes, at: position, limit: contents.upperBound, depth: 1)
            children.append(child)
            position = child.end
        }
        return children
    }
}
