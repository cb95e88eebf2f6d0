import Crypto
import Foundation

/// A certification authority (payment system) public key, as a terminal stores it: registered application provider
/// identifier, CA public key index (tag 8F on the card), the RSA key, and optionally its expiry and SHA-1 checksum
/// (EMV Book 2, 11.2.2).
public struct CAPublicKey: Hashable, Sendable {
    /// The 5-byte RID, e.g. A000000003 for Visa.
    public let rid: [UInt8]
    /// The CA public key index the card names in tag 8F.
    public let index: UInt8
    /// The RSA public key.
    public let key: RSAPublicKey
    /// The last day the key may be used, if known (a calendar date at UTC).
    public let expiry: Date?
    /// SHA-1(RID | index | modulus | exponent), the checksum payment systems publish with each key.
    public let checksum: [UInt8]

    /// Creates a CA public key, computing its checksum, or checking the published one when given.
    ///
    /// - Throws: ``ODAError/invalidKey`` when the RID is not 5 bytes or the key is unusable,
    ///   ``ODAError/caKeyChecksumMismatch`` when `checksum` is given and differs.
    public init(rid: [UInt8], index: UInt8, key: RSAPublicKey, expiry: Date? = nil, checksum: [UInt8]? = nil) throws {
        guard rid.count == 5 else { throw ODAError(.invalidKey, "RID must be 5 bytes") }
        let computed = Self.checksum(rid: rid, index: index, key: key)
        if let checksum, checksum != computed {
            throw ODAError(
                .caKeyChecksumMismatch,
                "checksum of CA key \(rid.hexString) index \([index].hexString) does not match its contents"
            )
        }
        self.rid = rid
        self.index = index
        self.key = key
        self.expiry = expiry
        self.checksum = computed
    }

    /// Same as the other initializer with modulus and exponent bytes.
    public init(
        rid: [UInt8],
        index: UInt8,
        modulus: [UInt8],
        exponent: [UInt8],
        expiry: Date? = nil,
        checksum: [UInt8]? = nil
    ) throws {
        try self.init(
            rid: rid,
            index: index,
            key: RSAPublicKey(modulus: modulus, exponent: exponent),
            expiry: expiry,
            checksum: checksum
        )
    }

    /// SHA-1(RID | index | modulus | exponent) (EMV Book 2, 11.2.2).
    public static func checksum(rid: [UInt8], index: UInt8, key: RSAPublicKey) -> [UInt8] {
        var sha = Insecure.SHA1()
        sha.update(data: rid)
        sha.update(data: [index])
        sha.update(data: key.modulus)
        sha.update(data: key.exponent)
        return Array(sha.finalize())
    }

    /// Whether the key's expiry date is before the calendar day of `date` (UTC); false without an expiry.
    public func isExpired(on date: Date) -> Bool {
        guard let expiry else { return false }
        return CalendarDay(date) > CalendarDay(expiry)
    }
}
