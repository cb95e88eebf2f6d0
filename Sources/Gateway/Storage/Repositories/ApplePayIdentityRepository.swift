import ApplePay
import SwiftASN1
import X509
import Foundation
public import _SQLStorage

/// A merchant's Apple Pay payment processing identities (certificate and private key) in the gateway schema's
/// `applepay_identities` table: the certificate as PEM, the private key PEM sealed with AES-GCM under the gateway's
/// data key and bound to its row id, so a key moved to another row does not open. A merchant may have several (key
/// rotation): tokens name theirs by publicKeyHash.
public struct ApplePayIdentityRepository: Sendable {
    /// One registered identity as listed: no key material.
    public struct Registration: Sendable, Hashable, Codable {
        /// The row id (`apc_…`).
        public let id: String
        /// The merchant it belongs to.
        public let merchantId: String
        /// Base64 SHA-256 of the certificate's public key: what tokens name.
        public let publicKeyHash: String
        /// When it was registered.
        public let createdAt: Date
    }

    /// Where the table is; migrate ``GatewaySchema`` first.
    public let database: any SQLDatabase
    /// The key that seals the private keys.
    public let keys: GatewayKeys

    /// A repository over `database`.
    public init(database: any SQLDatabase, keys: GatewayKeys) {
        self.database = database
        self.keys = keys
    }

    /// Registers a certificate and its private key (PEM) for `merchantId`.
    /// - Throws: ``DomainError`` (`notFound`) for an unknown merchant; `ApplePayError.merchantIdentityInvalid` when
    ///   the key does not match the certificate; ``StorageError`` when the same certificate is registered already.
    public func register(
        merchantId: String, certificatePEM: String, privateKeyPEM: String, merchantIdentifier: String? = nil,
        actor: String, at date: Date = Date()
    ) async throws -> Registration {
        let identity = try MerchantIdentity(
            certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM, merchantIdentifier: merchantIdentifier)
        let id = EntityID.make("apc")
        let sealedKey = keys.seal(Array(privateKeyPEM.utf8), authenticating: Self.authenticatedData(id: id))
        let registration = Registration(
            id: id, merchantId: merchantId, publicKeyHash: identity.publicKeyHash, createdAt: date)
        try await database.transaction { executor in
            guard
                !(try await executor.query("SELECT id FROM merchants WHERE id = $1", [.text(merchantId)])).isEmpty
            else { throw DomainError("no merchant \(merchantId)", code: .notFound) }
            try await executor.query(
                """
                INSERT INTO applepay_identities (id, merchant_id, public_key_hash, certificate_pem, sealed_private_key,
                    merchant_identifier, created_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """,
                [
                    .text(id), .text(merchantId), .text(identity.publicKeyHash), .text(certificatePEM),
                    .blob(sealedKey), .text(merchantIdentifier), .integer(date.millis),
                ])
            try await AuditLog.record(
                on: executor, at: date, actor: actor, entity: "merchant", id: merchantId,
                action: "applepay-identity-registered", detail: "\(id) publicKeyHash \(identity.publicKeyHash)")
        }
        return registration
    }

    /// The merchant's registrations, oldest first.
    public func registrations(merchantId: String) async throws -> [Registration] {
        try await database.query(
            """
            SELECT id, merchant_id, public_key_hash, created_at FROM applepay_identities WHERE merchant_id = $1
            ORDER BY created_at, id
            """, [.text(merchantId)]
        ).map { row in
            Registration(
                id: try row.text("id"), merchantId: try row.text("merchant_id"),
                publicKeyHash: try row.text("public_key_hash"), createdAt: Date(millis: try row.integer("created_at")))
        }
    }

    /// When each of the merchant's certificates stops being valid, by registration id (read from the stored
    /// certificate: public data, nothing opened).
    public func expiries(merchantId: String) async throws -> [String: Date] {
        var expiries: [String: Date] = [:]
        for row in try await database.query(
            "SELECT id, certificate_pem FROM applepay_identities WHERE merchant_id = $1", [.text(merchantId)])
        {
            if let certificate = try? Certificate(pemEncoded: try row.text("certificate_pem")) {
                expiries[try row.text("id")] = certificate.notValidAfter
            }
        }
        return expiries
    }

    /// The merchant's identities with their private keys opened, for the decryptor.
    /// - Throws: ``GatewayKeysError`` when a key does not open under the data key; `ApplePayError` when a stored
    ///   identity no longer parses.
    public func identities(merchantId: String) async throws -> [MerchantIdentity] {
        try await database.query(
            """
            SELECT id, certificate_pem, sealed_private_key, merchant_identifier FROM applepay_identities
            WHERE merchant_id = $1 ORDER BY created_at DESC, id
            """, [.text(merchantId)]
        ).map { row in
            let id = try row.text("id")
            let keyPEM = try keys.open(
                try row.blob("sealed_private_key"), authenticating: Self.authenticatedData(id: id))
            return try MerchantIdentity(
                certificatePEM: try row.text("certificate_pem"), privateKeyPEM: String(decoding: keyPEM, as: UTF8.self),
                merchantIdentifier: try row.optionalText("merchant_identifier"))
        }
    }

    /// What a sealed private key is bound to: its row.
    static func authenticatedData(id: String) -> [UInt8] { Array("applepay-identity:\(id)".utf8) }
}
