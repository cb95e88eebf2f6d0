/// An error of offline data authentication: RSA certificate recovery, SDA, DDA/fDDA, CDA, CA public key lists
/// and the signing side.
///
/// Equality and hashing compare only ``code``, so tests and callers can match a failure with
/// `#expect(throws: ODAError.hashMismatch)` or `catch let error as ODAError where error == .expired`.
/// Messages never carry a PAN, key material or recovered certificate bytes.
public struct ODAError: CodedError {
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
            case missingData
            case duplicateDataObject
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
        /// A data object offline data authentication needs is absent from the card's responses (the TVR's "ICC
        /// data missing").
        public static let missingData = Code(.missingData)
        /// A data object offline data authentication reads appears more than once in the card's responses.
        public static let duplicateDataObject = Code(.duplicateDataObject)

        /// The code's name.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// A human explanation, free of card data and key material.
    public let message: String
    /// The source file that threw the error (not part of equality).
    public let file: String
    /// The source line that threw the error (not part of equality).
    public let line: UInt

    /// Creates an error with a code and an explanation.
    public init(_ code: Code, _ message: String, file: String = #fileID, line: UInt = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    private static func pattern(_ code: Code) -> ODAError { ODAError(code, "any \(code) error") }

    /// Matches any ``Code/invalidKey`` error.
    public static let invalidKey = pattern(.invalidKey)
    /// Matches any ``Code/wrongLength`` error.
    public static let wrongLength = pattern(.wrongLength)
    /// Matches any ``Code/signatureOutOfRange`` error.
    public static let signatureOutOfRange = pattern(.signatureOutOfRange)
    /// Matches any ``Code/badHeader`` error.
    public static let badHeader = pattern(.badHeader)
    /// Matches any ``Code/badTrailer`` error.
    public static let badTrailer = pattern(.badTrailer)
    /// Matches any ``Code/badFormat`` error.
    public static let badFormat = pattern(.badFormat)
    /// Matches any ``Code/unsupportedHashAlgorithm`` error.
    public static let unsupportedHashAlgorithm = pattern(.unsupportedHashAlgorithm)
    /// Matches any ``Code/unsupportedPublicKeyAlgorithm`` error.
    public static let unsupportedPublicKeyAlgorithm = pattern(.unsupportedPublicKeyAlgorithm)
    /// Matches any ``Code/hashMismatch`` error.
    public static let hashMismatch = pattern(.hashMismatch)
    /// Matches any ``Code/remainderMismatch`` error.
    public static let remainderMismatch = pattern(.remainderMismatch)
    /// Matches any ``Code/exponentMismatch`` error.
    public static let exponentMismatch = pattern(.exponentMismatch)
    /// Matches any ``Code/issuerIdentifierMismatch`` error.
    public static let issuerIdentifierMismatch = pattern(.issuerIdentifierMismatch)
    /// Matches any ``Code/panMismatch`` error.
    public static let panMismatch = pattern(.panMismatch)
    /// Matches any ``Code/expired`` error.
    public static let expired = pattern(.expired)
    /// Matches any ``Code/revoked`` error.
    public static let revoked = pattern(.revoked)
    /// Matches any ``Code/keyTooLong`` error.
    public static let keyTooLong = pattern(.keyTooLong)
    /// Matches any ``Code/malformedDynamicData`` error.
    public static let malformedDynamicData = pattern(.malformedDynamicData)
    /// Matches any ``Code/cryptogramInformationMismatch`` error.
    public static let cryptogramInformationMismatch = pattern(.cryptogramInformationMismatch)
    /// Matches any ``Code/transactionDataHashMismatch`` error.
    public static let transactionDataHashMismatch = pattern(.transactionDataHashMismatch)
    /// Matches any ``Code/invalidStaticData`` error.
    public static let invalidStaticData = pattern(.invalidStaticData)
    /// Matches any ``Code/caKeyNotFound`` error.
    public static let caKeyNotFound = pattern(.caKeyNotFound)
    /// Matches any ``Code/caKeyChecksumMismatch`` error.
    public static let caKeyChecksumMismatch = pattern(.caKeyChecksumMismatch)
    /// Matches any ``Code/duplicateCAKey`` error.
    public static let duplicateCAKey = pattern(.duplicateCAKey)
    /// Matches any ``Code/malformedCAKeyList`` error.
    public static let malformedCAKeyList = pattern(.malformedCAKeyList)
    /// Matches any ``Code/invalidInput`` error.
    public static let invalidInput = pattern(.invalidInput)
    /// Matches any ``Code/keyGenerationFailed`` error.
    public static let keyGenerationFailed = pattern(.keyGenerationFailed)
    /// Matches any ``Code/missingData`` error.
    public static let missingData = pattern(.missingData)
    /// Matches any ``Code/duplicateDataObject`` error.
    public static let duplicateDataObject = pattern(.duplicateDataObject)
}
