public import Crypto
public import Foundation

/// A loyalty pass as a wallet holds it for Value Added Services: which merchant's readers may read it (the pass type
/// identifier), the message it gives them (a member number, say) and the merchant's key that message is encrypted
/// to.
///
/// Coded as the subset of Apple's `pass.json` that VAS uses, so a pass's own `pass.json` loads as it is:
///
/// ```json
/// {"passTypeIdentifier": "pass.com.example.coffee", "serialNumber": "M-1001", "organizationName": "Coffee",
///  "nfc": {"message": "member-1001", "encryptionPublicKey": "MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgAC…"}}
/// ```
public struct VASPass: Sendable, Hashable, Codable {
    /// The pass type identifier (`pass.com.example.coffee`): a reader asks for passes by its SHA-256.
    public let passTypeIdentifier: String
    /// The pass's serial number within its type.
    public let serialNumber: String
    /// The merchant's name, for the wallet's screens.
    public let organizationName: String?
    /// The pass's web service, where the merchant updates it (pass.json `webServiceURL`).
    public let webServiceURL: URL?
    /// What VAS sends.
    public let nfc: NFC
    /// The merchant's key the message is encrypted to (``NFC/encryptionPublicKey`` parsed).
    public let encryptionKey: P256.KeyAgreement.PublicKey

    /// pass.json's `nfc` dictionary.
    public struct NFC: Sendable, Hashable, Codable {
        /// The message readers receive, at most 64 bytes of UTF-8.
        public let message: String
        /// The merchant's P-256 key, as pass.json carries it: base64 of its X.509 SubjectPublicKeyInfo.
        public let encryptionPublicKey: String
        /// Whether the wallet asks the customer to authenticate before giving the message.
        public let requiresAuthentication: Bool

        enum CodingKeys: String, CodingKey {
            case message, encryptionPublicKey, requiresAuthentication
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            message = try container.decode(String.self, forKey: .message)
            encryptionPublicKey = try container.decode(String.self, forKey: .encryptionPublicKey)
            requiresAuthentication =
                try container.decodeIfPresent(Bool.self, forKey: .requiresAuthentication) ?? false
        }

        init(message: String, encryptionPublicKey: String, requiresAuthentication: Bool) {
            self.message = message
            self.encryptionPublicKey = encryptionPublicKey
            self.requiresAuthentication = requiresAuthentication
        }
    }

    /// Creates a pass, checking it as ``init(passJSON:)`` does.
    /// - Throws: ``VASError`` `invalidPass`.
    public init(
        passTypeIdentifier: String, serialNumber: String, message: String,
        encryptionKey: P256.KeyAgreement.PublicKey, organizationName: String? = nil, webServiceURL: URL? = nil,
        requiresAuthentication: Bool = false
    ) throws(VASError) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.organizationName = organizationName
        self.webServiceURL = webServiceURL
        nfc = NFC(
            message: message, encryptionPublicKey: encryptionKey.derRepresentation.base64EncodedString(),
            requiresAuthentication: requiresAuthentication)
        self.encryptionKey = try Self.check(passTypeIdentifier: passTypeIdentifier, nfc: nfc)
    }

    /// Reads a pass from its `pass.json` (other keys are ignored).
    /// - Throws: ``VASError`` `invalidPass` when a key VAS needs is missing or wrong.
    public init(passJSON: Data) throws(VASError) {
        do {
            self = try JSONDecoder().decode(VASPass.self, from: passJSON)
        } catch let error as VASError {
            throw error
        } catch {
            throw VASError(.invalidPass, "not a pass.json with an nfc dictionary: \(Self.describe(error))")
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        passTypeIdentifier = try container.decode(String.self, forKey: .passTypeIdentifier)
        serialNumber = try container.decode(String.self, forKey: .serialNumber)
        organizationName = try container.decodeIfPresent(String.self, forKey: .organizationName)
        webServiceURL = try container.decodeIfPresent(URL.self, forKey: .webServiceURL)
        nfc = try container.decode(NFC.self, forKey: .nfc)
        encryptionKey = try Self.check(passTypeIdentifier: passTypeIdentifier, nfc: nfc)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(passTypeIdentifier, forKey: .passTypeIdentifier)
        try container.encode(serialNumber, forKey: .serialNumber)
        try container.encodeIfPresent(organizationName, forKey: .organizationName)
        try container.encodeIfPresent(webServiceURL, forKey: .webServiceURL)
        try container.encode(nfc, forKey: .nfc)
    }

    public static func == (lhs: VASPass, rhs: VASPass) -> Bool {
        lhs.passTypeIdentifier == rhs.passTypeIdentifier && lhs.serialNumber == rhs.serialNumber
            && lhs.organizationName == rhs.organizationName && lhs.webServiceURL == rhs.webServiceURL
            && lhs.nfc == rhs.nfc
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(passTypeIdentifier)
        hasher.combine(serialNumber)
        hasher.combine(nfc)
    }

    enum CodingKeys: String, CodingKey {
        case passTypeIdentifier, serialNumber, organizationName, webServiceURL, nfc
    }

    /// SHA-256 of the pass type identifier: what a reader's GET VAS DATA names (9F25).
    public var merchantIDHash: [UInt8] { VASCryptogram.merchantIDHash(passTypeIdentifier) }

    /// Checks what VAS needs and returns the parsed key.
    private static func check(passTypeIdentifier: String, nfc: NFC) throws(VASError) -> P256.KeyAgreement.PublicKey {
        guard passTypeIdentifier.hasPrefix("pass."), passTypeIdentifier.count > 5 else {
            throw VASError(.invalidPass, "a pass type identifier starts with 'pass.', got '\(passTypeIdentifier)'")
        }
        guard !nfc.message.isEmpty, nfc.message.utf8.count <= VASProtocol.maximumMessageLength else {
            throw VASError(
                .invalidPass,
                "the nfc message has 1 to \(VASProtocol.maximumMessageLength) bytes, "
                    + "got \(nfc.message.utf8.count)")
        }
        do {
            return try publicKey(base64: nfc.encryptionPublicKey)
        } catch {
            throw VASError(.invalidPass, "nfc.encryptionPublicKey is not a base64 P-256 SubjectPublicKeyInfo")
        }
    }

    /// A P-256 key from base64 SubjectPublicKeyInfo DER, compressed or not (pass.json uses compressed points).
    static func publicKey(base64: String) throws -> P256.KeyAgreement.PublicKey {
        guard let der = Data(base64Encoded: base64) else { throw VASError(.invalidPass, "not base64") }
        // DER is canonical: a compressed P-256 key's SubjectPublicKeyInfo is this header and the 33-byte point.
        if der.count == compressedHeader.count + 33, der.starts(with: compressedHeader) {
            return try P256.KeyAgreement.PublicKey(compressedRepresentation: der.dropFirst(compressedHeader.count))
        }
        return try P256.KeyAgreement.PublicKey(derRepresentation: der)
    }

    /// SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING (34 bytes, no unused bits) }.
    private static let compressedHeader: [UInt8] = [
        0x30, 0x39, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48,
        0xCE,
        0x3D, 0x03, 0x01, 0x07, 0x03, 0x22, 0x00,
    ]

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            (context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".") + " is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.dataCorrupted(let context):
            context.codingPath.map(\.stringValue).joined(separator: ".") + " has the wrong type"
        default: "not JSON"
        }
    }
}
