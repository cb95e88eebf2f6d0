/// An error of offline data authentication: RSA certificate recovery, SDA, DDA/fDDA, CDA, CA public key lists
/// and the signing side.
///
/// Equality and hashing compare only ``code``, so tests and callers can match a failure with
/// `#expect(throws: ODAError.hashMismatch)` or `catch let error as ODAError where error == .expired`.
/// Messages never carry a PAN, key material or recovered certificate bytes.
public struct ODAError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What went wrong; an extensible set of values.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case invalidKey
            case wrongLength
            case signatureOutOfRange
            case badHeader
            case badTrailer
            case badFormat
            case unsupportedHashAlgorithm
            case unsupportedPublicKeyAlgorithm
            case hashMismatch
            case remainderMismatch
            case exponentMismatch
            case issuerIdentifierMismatch
            case panMismatch
            case expired
            case revoked
            case keyTooLong
            case malformedDynamicData
            case cryptogramInformationMismatch
            case transactionDataHashMismatch
            case invalidStaticData
            case caKeyNotFound
            case caKeyChecksumMismatch
            case duplicateCAKey
            case malformedCAKeyList
            case invalidInput
            case keyGenerationFailed
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A key's modulus or exponent is not usable for EMV RSA (length, leading zero, exponent other than 3 or
        /// 2^16+1, inconsistent private parts).
        public static let invalidKey = Code(.invalidKey)
        /// A certificate or signature does not have the length of the modulus that should open it.
        public static let wrongLength = Code(.wrongLength)
        /// A certificate or signature, read as a number, is not less than the modulus.
        public static let signatureOutOfRange = Code(.signatureOutOfRange)
        /// The recovered data does not start with the header '6A'.
        public static let badHeader = Code(.badHeader)
        /// The recovered data does not end with the trailer 'BC'.
        public static let badTrailer = Code(.badTrailer)
        /// The recovered data has another format than expected ('02' issuer, '03' SSAD, '04' ICC, '05' SDAD).
        public static let badFormat = Code(.badFormat)
        /// The hash algorithm indicator is not '01' (SHA-1).
        public static let unsupportedHashAlgorithm = Code(.unsupportedHashAlgorithm)
        /// The public key algorithm indicator is not '01' (RSA).
        public static let unsupportedPublicKeyAlgorithm = Code(.unsupportedPublicKeyAlgorithm)
        /// The hash result in the recovered data differs from the hash of the signed data.
        public static let hashMismatch = Code(.hashMismatch)
        /// The public key remainder is missing or has a length that does not complete the modulus.
        public static let remainderMismatch = Code(.remainderMismatch)
        /// The public key exponent has a length other than the certificate's, or differs from the certified key.
        public static let exponentMismatch = Code(.exponentMismatch)
        /// The issuer identifier in the issuer certificate does not match the leftmost PAN digits.
        public static let issuerIdentifierMismatch = Code(.issuerIdentifierMismatch)
        /// The PAN in the ICC certificate does not match the application PAN.
        public static let panMismatch = Code(.panMismatch)
        /// The certificate expired before the given date.
        public static let expired = Code(.expired)
        /// The certificate is on the revocation list.
        public static let revoked = Code(.revoked)
        /// A certified key is longer than its certifying key (EMV Book 2, 5.1 and 6.1).
        public static let keyTooLong = Code(.keyTooLong)
        /// The ICC dynamic data in a signature is malformed (length fields, CDA layout).
        public static let malformedDynamicData = Code(.malformedDynamicData)
        /// The cryptogram information data in the CDA signature differs from the one in the response.
        public static let cryptogramInformationMismatch = Code(.cryptogramInformationMismatch)
        /// The CDA transaction data hash code differs from the hash of PDOL, CDOL and response data.
        public static let transactionDataHashMismatch = Code(.transactionDataHashMismatch)
        /// The static data to be authenticated cannot be built (AFL, record template, SDA tag list).
        public static let invalidStaticData = Code(.invalidStaticData)
        /// No CA public key with the requested RID and index.
        public static let caKeyNotFound = Code(.caKeyNotFound)
        /// A CA public key's checksum differs from SHA-1(RID | index | modulus | exponent).
        public static let caKeyChecksumMismatch = Code(.caKeyChecksumMismatch)
        /// Two CA public keys in one list have the same RID and index.
        public static let duplicateCAKey = Code(.duplicateCAKey)
        /// A CA public key list file is not valid JSON of the documented shape.
        public static let malformedCAKeyList = Code(.malformedCAKeyList)
        /// An argument to a signing or building function is out of range.
        public static let invalidInput = Code(.invalidInput)
        /// No suitable prime was found within the search bound.
        public static let keyGenerationFailed = Code(.keyGenerationFailed)

        /// The code's name.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation, free of card data and key material.
    public let message: String
    /// Where the error was thrown (not part of equality).
    public let file: String
    /// The line where the error was thrown (not part of equality).
    public let line: Int

    /// Creates an error with a code and an explanation.
    public init(_ code: Code, _ message: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    private init(code: Code) {
        self.init(code, code.description)
    }

    /// `code: message`.
    public var description: String { "ODAError.\(code): \(message)" }

    /// Compares codes only.
    public static func == (lhs: ODAError, rhs: ODAError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Matches any error with the same code, for `catch ODAError.expired` style patterns.
    public static func ~= (pattern: ODAError, value: any Error) -> Bool {
        (value as? ODAError)?.code == pattern.code
    }

    /// Any error with code ``Code/invalidKey``.
    public static let invalidKey = ODAError(code: .invalidKey)
    /// Any error with code ``Code/wrongLength``.
    public static let wrongLength = ODAError(code: .wrongLength)
    /// Any error with code ``Code/signatureOutOfRange``.
    public static let signatureOutOfRange = ODAError(code: .signatureOutOfRange)
    /// Any error with code ``Code/badHeader``.
    public static let badHeader = ODAError(code: .badHeader)
    /// Any error with code ``Code/badTrailer``.
    public static let badTrailer = ODAError(code: .badTrailer)
    /// Any error with code ``Code/badFormat``.
    public static let badFormat = ODAError(code: .badFormat)
    /// Any error with code ``Code/unsupportedHashAlgorithm``.
    public static let unsupportedHashAlgorithm = ODAError(code: .unsupportedHashAlgorithm)
    /// Any error with code ``Code/unsupportedPublicKeyAlgorithm``.
    public static let unsupportedPublicKeyAlgorithm = ODAError(code: .unsupportedPublicKeyAlgorithm)
    /// Any error with code ``Code/hashMismatch``.
    public static let hashMismatch = ODAError(code: .hashMismatch)
    /// Any error with code ``Code/remainderMismatch``.
    public static let remainderMismatch = ODAError(code: .remainderMismatch)
    /// Any error with code ``Code/exponentMismatch``.
    public static let exponentMismatch = ODAError(code: .exponentMismatch)
    /// Any error with code ``Code/issuerIdentifierMismatch``.
    public static let issuerIdentifierMismatch = ODAError(code: .issuerIdentifierMismatch)
    /// Any error with code ``Code/panMismatch``.
    public static let panMismatch = ODAError(code: .panMismatch)
    /// Any error with code ``Code/expired``.
    public static let expired = ODAError(code: .expired)
    /// Any error with code ``Code/revoked``.
    public static let revoked = ODAError(code: .revoked)
    /// Any error with code ``Code/keyTooLong``.
    public static let keyTooLong = ODAError(code: .keyTooLong)
    /// Any error with code ``Code/malformedDynamicData``.
    public static let malformedDynamicData = ODAError(code: .malformedDynamicData)
    /// Any error with code ``Code/cryptogramInformationMismatch``.
    public static let cryptogramInformationMismatch = ODAError(code: .cryptogramInformationMismatch)
    /// Any error with code ``Code/transactionDataHashMismatch``.
    public static let transactionDataHashMismatch = ODAError(code: .transactionDataHashMismatch)
    /// Any error with code ``Code/invalidStaticData``.
    public static let invalidStaticData = ODAError(code: .invalidStaticData)
    /// Any error with code ``Code/caKeyNotFound``.
    public static let caKeyNotFound = ODAError(code: .caKeyNotFound)
    /// Any error with code ``Code/caKeyChecksumMismatch``.
    public static let caKeyChecksumMismatch = ODAError(code: .caKeyChecksumMismatch)
    /// Any error with code ``Code/duplicateCAKey``.
    public static let duplicateCAKey = ODAError(code: .duplicateCAKey)
    /// Any error with code ``Code/malformedCAKeyList``.
    public static let malformedCAKeyList = ODAError(code: .malformedCAKeyList)
    /// Any error with code ``Code/invalidInput``.
    public static let invalidInput = ODAError(code: .invalidInput)
    /// Any error with code ``Code/keyGenerationFailed``.
    public static let keyGenerationFailed = ODAError(code: .keyGenerationFailed)
}
