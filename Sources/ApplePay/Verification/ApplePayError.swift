public import EMV

/// Why an Apple Pay token was refused or could not be decrypted: one code per failed check.
///
/// Equality compares ``code`` only, so tests write `#expect(throws: ApplePayError.signatureInvalid)` and callers
/// `catch ApplePayError.tokenReplayed`. Messages name the check that failed and never carry account numbers,
/// cryptograms, keys, plaintext or ciphertext.
public struct ApplePayError: CodedError {
    /// What went wrong, independent of where.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable, CaseIterable {
            case tokenMalformed, unsupportedVersion
            case signatureMalformed, messageDigestMismatch, signatureInvalid
            case leafMarkerMissing, intermediateMarkerMissing, chainInvalid, untrustedRoot
            case certificateNotValidAtSigningTime, signingTimeMissing, tokenExpired, tokenReplayed
            case unknownPublicKeyHash, merchantIdentityInvalid, decryptionFailed, applicationDataMismatch
            case payloadMalformed
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The code named `name` (its ``description``); nil for a name this version does not know.
        public init?(name: String) {
            guard let base = Base(rawValue: name) else { return nil }
            self.base = base
        }

        /// The token JSON, a base64 or hex field, or a key in the header is malformed or missing.
        public static let tokenMalformed = Code(.tokenMalformed)
        /// The token's `version` is neither EC_v1 nor RSA_v1, or its header lacks the key that version needs.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// The signature is not a detached CMS SignedData this verifier understands (bad BER, wrong content type,
        /// no signer, no certificates, unsupported digest or signature algorithm).
        public static let signatureMalformed = Code(.signatureMalformed)
        /// The signed messageDigest attribute is not SHA-256 of the signed token fields: the token was altered.
        public static let messageDigestMismatch = Code(.messageDigestMismatch)
        /// The signer's signature over the signed attributes does not verify with the leaf certificate's key.
        public static let signatureInvalid = Code(.signatureInvalid)
        /// The leaf certificate lacks Apple's marker extension 1.2.840.113635.100.6.29.
        public static let leafMarkerMissing = Code(.leafMarkerMissing)
        /// The intermediate certificate lacks Apple's marker extension 1.2.840.113635.100.6.2.14.
        public static let intermediateMarkerMissing = Code(.intermediateMarkerMissing)
        /// The certificates do not form a chain leaf → intermediate → root (issuer names, signatures, CA flag).
        public static let chainInvalid = Code(.chainInvalid)
        /// The chain ends at a root that is not configured as trusted.
        public static let untrustedRoot = Code(.untrustedRoot)
        /// A certificate of the chain was not yet valid or had expired at the CMS signing time.
        public static let certificateNotValidAtSigningTime = Code(.certificateNotValidAtSigningTime)
        /// The signer gave no signing-time attribute, so the token's age cannot be checked.
        public static let signingTimeMissing = Code(.signingTimeMissing)
        /// The signing time is outside the accepted window around the verifier's clock (too old or in the future).
        public static let tokenExpired = Code(.tokenExpired)
        /// A token with this transactionId was already accepted.
        public static let tokenReplayed = Code(.tokenReplayed)
        /// No configured merchant key has the header's publicKeyHash.
        public static let unknownPublicKeyHash = Code(.unknownPublicKeyHash)
        /// A merchant certificate or private key is unusable (unreadable, mismatched, no merchant identifier).
        public static let merchantIdentityInvalid = Code(.merchantIdentityInvalid)
        /// Key agreement, key unwrapping or AES-GCM authentication failed.
        public static let decryptionFailed = Code(.decryptionFailed)
        /// The header's applicationData is not SHA-256 of the caller's application data (or one of them is absent).
        public static let applicationDataMismatch = Code(.applicationDataMismatch)
        /// The decrypted payload is not the JSON Apple documents, or a value in it is invalid.
        public static let payloadMalformed = Code(.payloadMalformed)

        /// Every code.
        public static var allCases: [Code] { Base.allCases.map(Code.init) }

        /// The code's name, as in `ApplePayError.Code.tokenExpired`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation, free of card data and key material.
    public let message: String
    /// Source file that raised the error (not part of equality).
    public let file: String
    /// Source line that raised the error (not part of equality).
    public let line: UInt

    /// Creates an error.
    public init(code: Code, message: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    private static func pattern(_ code: Code) -> ApplePayError {
        ApplePayError(code: code, message: "any \(code) error")
    }

    /// Matches any ``Code/tokenMalformed`` error.
    public static let tokenMalformed = pattern(.tokenMalformed)
    /// Matches any ``Code/unsupportedVersion`` error.
    public static let unsupportedVersion = pattern(.unsupportedVersion)
    /// Matches any ``Code/signatureMalformed`` error.
    public static let signatureMalformed = pattern(.signatureMalformed)
    /// Matches any ``Code/messageDigestMismatch`` error.
    public static let messageDigestMismatch = pattern(.messageDigestMismatch)
    /// Matches any ``Code/signatureInvalid`` error.
    public static let signatureInvalid = pattern(.signatureInvalid)
    /// Matches any ``Code/leafMarkerMissing`` error.
    public static let leafMarkerMissing = pattern(.leafMarkerMissing)
    /// Matches any ``Code/intermediateMarkerMissing`` error.
    public static let intermediateMarkerMissing = pattern(.intermediateMarkerMissing)
    /// Matches any ``Code/chainInvalid`` error.
    public static let chainInvalid = pattern(.chainInvalid)
    /// Matches any ``Code/untrustedRoot`` error.
    public static let untrustedRoot = pattern(.untrustedRoot)
    /// Matches any ``Code/certificateNotValidAtSigningTime`` error.
    public static let certificateNotValidAtSigningTime = pattern(.certificateNotValidAtSigningTime)
    /// Matches any ``Code/signingTimeMissing`` error.
    public static let signingTimeMissing = pattern(.signingTimeMissing)
    /// Matches any ``Code/tokenExpired`` error.
    public static let tokenExpired = pattern(.tokenExpired)
    /// Matches any ``Code/tokenReplayed`` error.
    public static let tokenReplayed = pattern(.tokenReplayed)
    /// Matches any ``Code/unknownPublicKeyHash`` error.
    public static let unknownPublicKeyHash = pattern(.unknownPublicKeyHash)
    /// Matches any ``Code/merchantIdentityInvalid`` error.
    public static let merchantIdentityInvalid = pattern(.merchantIdentityInvalid)
    /// Matches any ``Code/decryptionFailed`` error.
    public static let decryptionFailed = pattern(.decryptionFailed)
    /// Matches any ``Code/applicationDataMismatch`` error.
    public static let applicationDataMismatch = pattern(.applicationDataMismatch)
    /// Matches any ``Code/payloadMalformed`` error.
    public static let payloadMalformed = pattern(.payloadMalformed)
}
