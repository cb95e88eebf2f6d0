import EMV
import Foundation

/// A token's `paymentData` with its text fields decoded to bytes and its version checked.
struct TokenFields {
    let version: PaymentData.Version
    /// The ephemeral public key (EC_v1) or wrapped key (RSA_v1): the first signed field.
    let keyMaterial: [UInt8]
    let data: [UInt8]
    let signature: [UInt8]
    let transactionId: [UInt8]
    /// The header's applicationData: SHA-256 of the request's application data.
    let applicationDataHash: [UInt8]?

    init(_ paymentData: PaymentData) throws {
        guard let version = PaymentData.Version(rawValue: paymentData.version) else {
            throw ApplePayError(code: .unsupportedVersion, message: "the token version is neither EC_v1 nor RSA_v1")
        }
        self.version = version
        let header = paymentData.header
        let keyText: String?
        switch version {
        case .ecV1: keyText = header.ephemeralPublicKey
        case .rsaV1: keyText = header.wrappedKey
        }
        guard let keyText else {
            throw ApplePayError(
                code: .unsupportedVersion,
                message: "a \(version.rawValue) header needs \(version == .ecV1 ? "ephemeralPublicKey" : "wrappedKey")")
        }
        keyMaterial = try Self.base64(keyText, "header key")
        data = try Self.base64(paymentData.data, "data")
        signature = try Self.base64(paymentData.signature, "signature")
        transactionId = try Self.hex(header.transactionId, "transactionId")
        applicationDataHash = try header.applicationData.map { try Self.hex($0, "applicationData") }
    }

    private static func base64(_ text: String, _ field: String) throws -> [UInt8] {
        guard let bytes = Data(base64Encoded: text), !bytes.isEmpty else {
            throw ApplePayError(code: .tokenMalformed, message: "the token's \(field) is not base64")
        }
        return Array(bytes)
    }

    private static func hex(_ text: String, _ field: String) throws -> [UInt8] {
        guard let bytes = [UInt8](hex: text), !bytes.isEmpty else {
            throw ApplePayError(code: .tokenMalformed, message: "the token's \(field) is not hex")
        }
        return bytes
    }
}
