import Foundation
import SwiftASN1
import X509

/// Checks that a token's signing certificate chains leaf → intermediate → a configured root with Apple's marker
/// extensions, and caches what does not depend on time.
///
/// A leaf and intermediate sign millions of tokens, so after the first token the signatures of the chain are
/// known good: the cache maps the two certificates' DER to their parsed form and root, and only the validity
/// periods (which depend on each token's signing time) and the CMS signature itself are checked per token.
final class CertificateChainVerifier: @unchecked Sendable {
    /// Apple's marker on the leaf (the payment signing certificate).
    static let leafMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 29]
    /// Apple's marker on the intermediate (Apple Application Integration CA).
    static let intermediateMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 14]
    /// Entries kept before the cache is emptied: real chains are a handful, so reaching it means churn.
    static let cacheLimit = 64

    /// A verified chain.
    struct Chain {
        let leaf: Certificate
        let intermediate: Certificate
        let root: Certificate

        /// Checks that each certificate was valid at `signingTime`.
        func checkValidity(at signingTime: Date) throws {
            for certificate in [leaf, intermediate, root]
            where !(certificate.notValidBefore...certificate.notValidAfter).contains(signingTime) {
                throw ApplePayError(
                    code: .certificateNotValidAtSigningTime,
                    message: "the certificate \"\(certificate.subject)\" was not valid at the signing time")
            }
        }
    }

    private let roots: [Certificate]
    private let lock = NSLock()
    // Guarded by `lock`. Keyed by the leaf's DER followed by the intermediate's.
    private var cache: [[UInt8]: Chain] = [:]

    init(roots: [Certificate]) {
        self.roots = roots
    }

    /// The verified chain of `signature`'s signer (validity periods not checked: see ``Chain/checkValidity(at:)``).
    func chain(for signature: PaymentSignature) throws -> Chain {
        // The key is everything the chain depends on, as bytes, so a hit needs no X.509 parsing at all.
        var key: [UInt8] = []
        key.reserveCapacity(signature.certificateDER.reduce(64) { $0 + $1.count + 4 })
        for der in signature.certificateDER {
            key += [UInt8(truncatingIfNeeded: der.count >> 8), UInt8(truncatingIfNeeded: der.count)]
            key += der
        }
        key += signature.signerIssuerDER
        key += signature.signerSerial
        if let chain = lock.withLock({ cache[key] }) { return chain }

        let chain = try verifiedChain(signature)
        lock.withLock {
            if cache.count >= Self.cacheLimit { cache.removeAll() }
            cache[key] = chain
        }
        return chain
    }

    private func verifiedChain(_ signature: PaymentSignature) throws -> Chain {
        let certificates = try signature.certificateDER.map { der in
            do {
                return try Certificate(derEncoded: Array(der))
            } catch {
                throw PaymentSignature.malformed("a certificate in the signature does not parse")
            }
        }
        let issuer: DistinguishedName
        do {
            issuer = try DistinguishedName(derEncoded: Array(signature.signerIssuerDER))
        } catch {
            throw PaymentSignature.malformed("the signer's issuer name is malformed")
        }
        let serial = Certificate.SerialNumber(bytes: signature.signerSerial)
        guard let leafIndex = certificates.firstIndex(where: { $0.issuer == issuer && $0.serialNumber == serial })
        else { throw PaymentSignature.malformed("the signer's certificate is not in the signature") }
        let leaf = certificates[leafIndex]
        guard
            let intermediate = certificates.indices.first(where: {
                $0 != leafIndex && certificates[$0].subject == leaf.issuer
            }).map({ certificates[$0] })
        else { throw ApplePayError(code: .chainInvalid, message: "the signature has no intermediate certificate") }
        return try verifyChain(leaf: leaf, intermediate: intermediate)
    }

    private func verifyChain(leaf: Certificate, intermediate: Certificate) throws -> Chain {
        guard leaf.extensions[oid: Self.leafMarkerOID] != nil else {
            throw ApplePayError(
                code: .leafMarkerMissing, message: "the leaf certificate lacks extension 1.2.840.113635.100.6.29")
        }
        guard intermediate.extensions[oid: Self.intermediateMarkerOID] != nil else {
            throw ApplePayError(
                code: .intermediateMarkerMissing,
                message: "the intermediate certificate lacks extension 1.2.840.113635.100.6.2.14")
        }
        guard Self.isCA(intermediate) else {
            throw ApplePayError(code: .chainInvalid, message: "the intermediate certificate is not a CA")
        }
        guard intermediate.publicKey.isValidSignature(leaf.signature, for: leaf) else {
            throw ApplePayError(
                code: .chainInvalid, message: "the leaf certificate's signature does not verify with the intermediate")
        }
        guard
            let root = roots.first(where: {
                $0.subject == intermediate.issuer
                    && $0.publicKey.isValidSignature(intermediate.signature, for: intermediate)
            })
        else {
            throw ApplePayError(
                code: .untrustedRoot,
                message:
                    "the intermediate certificate is not signed by a configured root (issuer \"\(intermediate.issuer)\")"
            )
        }
        return Chain(leaf: leaf, intermediate: intermediate, root: root)
    }

    private static func isCA(_ certificate: Certificate) -> Bool {
        if case .isCertificateAuthority = try? certificate.extensions.basicConstraints { return true }
        return false
    }
}
