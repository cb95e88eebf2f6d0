import BigInt
import Crypto
import Foundation
import _CryptoExtras

// The private operation runs in BoringSSL (constant time, CRT, Montgomery arithmetic) when it takes the key: a card
// signs every fDDA and CDA transaction, and BigInt's generic arithmetic alone costs milliseconds per 1024-bit
// signature. RSA blind signing (RFC 9474) exposes exactly the raw private operation EMV needs (RSASP1, no padding);
// the hash parameter is unused by it. BoringSSL takes keys of 1024 bits and more; smaller keys stay on BigInt.
typealias BoringSSLRawRSAKey = _RSA.BlindSigning.PrivateKey<SHA384>

extension RSAPrivateKey {
    /// BoringSSL's copy of the key, or nil when it refuses it (under 1024 bits).
    static func boringSSLKey(
        n: BigUInt, e: BigUInt, d: BigUInt, p: BigUInt, q: BigUInt, dP: BigUInt, dQ: BigUInt, qInv: BigUInt
    ) -> BoringSSLRawRSAKey? {
        var body: [UInt8] = derInteger(0)
        for value in [n, e, d, p, q, dP, dQ, qInv] { body += derInteger(value) }
        let pkcs1 = [0x30] + derLength(body.count) + body
        return try? BoringSSLRawRSAKey(unsafeDERRepresentation: pkcs1, parameters: .RSABSSA_SHA384_PSS_Deterministic)
    }

    /// The raw private operation in BoringSSL; `message` has the modulus length.
    static func boringSSLSign(_ message: [UInt8], with key: BoringSSLRawRSAKey) throws -> [UInt8] {
        Array(try key.blindSignature(for: message).rawRepresentation)
    }

    /// A DER INTEGER (non-negative): minimal big-endian bytes, with a leading zero when the top bit is set.
    private static func derInteger(_ value: BigUInt) -> [UInt8] {
        var bytes = Array(value.serialize())
        if bytes.isEmpty { bytes = [0] }
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return [0x02] + derLength(bytes.count) + bytes
    }

    private static func derLength(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var remaining = count
        while remaining > 0 {
            bytes.insert(UInt8(remaining & 0xFF), at: 0)
            remaining >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}
