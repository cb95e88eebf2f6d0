/// The recovered contents of Signed Dynamic Application Data (tag 9F4B), opened with the ICC public key: dynamic
/// data authentication (DDA, EMV Book 2, 6.5 and table 17), fDDA (Book C-3) and CDA (Book 2, 6.6).
///
/// The card signs its ICC Dynamic Data together with the terminal dynamic data: the DDOL data for DDA, the fDDA input
/// for Visa contactless (``fDDATerminalDynamicData(unpredictableNumber:amountAuthorised:transactionCurrencyCode:cardAuthenticationRelatedData:)``),
/// the Unpredictable Number for CDA.
public struct SignedDynamicApplicationData: Sendable {
    /// Signed data format '05' (EMV Book 2, table 17): DDA and CDA.
    public static let format: UInt8 = 0x05
    /// Signed data format '95', which Visa fDDA signatures carry instead: a real Visa Debit card's fDDA version '01'
    /// signature (tests' tlv-real-cards.json) recovers with '95' and its hash covers the Book C-3 fDDA input.
    public static let fDDAFormat: UInt8 = 0x95
    static let name = "signed dynamic application data"

    let frame: SignedDataFrame

    /// The hash algorithm indicator ('01' SHA-1).
    public let hashAlgorithmIndicator: UInt8
    /// The ICC Dynamic Data: for DDA and fDDA the ICC Dynamic Number with its length byte; for CDA see
    /// ``CDADynamicData``.
    public let iccDynamicData: [UInt8]

    /// Opens the signature with the ICC public key and checks length, trailer, header, format and the ICC dynamic
    /// data length.
    ///
    /// - Parameters:
    ///   - signature: the value of tag 9F4B, as long as the ICC key's modulus.
    ///   - iccKey: the ICC public key, from ``ICCPublicKeyCertificate/verify(remainder:exponent:staticData:pan:on:)``.
    ///   - format: the signed data format expected: ``format`` ('05', the default), or ``fDDAFormat`` for a Visa
    ///     fDDA signature.
    /// - Throws: ``ODAError/wrongLength``, ``ODAError/signatureOutOfRange``, ``ODAError/badTrailer``,
    ///   ``ODAError/badHeader``, ``ODAError/badFormat``, ``ODAError/malformedDynamicData``.
    public init(
        recovering signature: some Collection<UInt8>, with iccKey: RSAPublicKey, format: UInt8 = format
    ) throws {
        frame = try SignedDataFrame(recovering: signature, with: iccKey, format: format, name: Self.name)
        // hash algorithm | L_DD | ICC dynamic data (L_DD) | 'BB' padding (N_IC - L_DD - 25)
        let data = Array(frame.data)
        hashAlgorithmIndicator = data[0]
        let length = Int(data[1])
        guard length <= data.count - 2 else {
            throw ODAError(.malformedDynamicData, "ICC dynamic data length \(length) exceeds the signature")
        }
        iccDynamicData = Array(data[2..<(2 + length)])
    }

    /// The hash result carried in the signature.
    public var hashResult: [UInt8] { frame.hashResult }

    /// The ICC Dynamic Number: the first element of the ICC dynamic data, 2 to 8 bytes after its length byte.
    ///
    /// - Throws: ``ODAError/malformedDynamicData`` when the length byte is out of range.
    public func iccDynamicNumber() throws -> [UInt8] {
        try Self.dynamicNumber(in: iccDynamicData).number
    }

    /// Runs EMV Book 2, 6.5.2 steps 5 to 7: the hash over the recovered data and the terminal dynamic data.
    ///
    /// - Parameter terminalDynamicData: the DDOL data sent in INTERNAL AUTHENTICATE (DDA), the fDDA input (fDDA),
    ///   or the Unpredictable Number (CDA).
    /// - Throws: ``ODAError/unsupportedHashAlgorithm``, ``ODAError/hashMismatch``.
    public func verify(terminalDynamicData: [UInt8]) throws {
        try frame.verifyHash(algorithm: hashAlgorithmIndicator, extra: [terminalDynamicData], name: Self.name)
    }

    /// The fDDA terminal dynamic data of EMV Book C-3: the Unpredictable Number (9F37) alone for fDDA version '00'
    /// (no Card Authentication Related Data); for version '01' followed by Amount, Authorised (9F02), Transaction
    /// Currency Code (5F2A) and the Card Authentication Related Data (9F69) as the card returned it.
    ///
    /// - Throws: ``ODAError/invalidInput`` for wrong lengths or an fDDA version other than '00' or '01'.
    public static func fDDATerminalDynamicData(
        unpredictableNumber: [UInt8],
        amountAuthorised: [UInt8],
        transactionCurrencyCode: [UInt8],
        cardAuthenticationRelatedData: [UInt8]?
    ) throws -> [UInt8] {
        guard unpredictableNumber.count == 4 else {
            throw ODAError(.invalidInput, "unpredictable number must be 4 bytes")
        }
        guard let cardData = cardAuthenticationRelatedData, cardData.first != 0x00 else { return unpredictableNumber }
        guard cardData.first == 0x01 else {
            throw ODAError(.invalidInput, "unsupported fDDA version \(cardData.prefix(1).hexString)")
        }
        guard amountAuthorised.count == 6, transactionCurrencyCode.count == 2 else {
            throw ODAError(.invalidInput, "amount must be 6 bytes and currency code 2 bytes")
        }
        return unpredictableNumber + amountAuthorised + transactionCurrencyCode + cardData
    }

    /// DDA/fDDA ICC dynamic data for the signing side: the number's length byte, then the number.
    ///
    /// - Throws: ``ODAError/invalidInput`` when the number is not 2 to 8 bytes.
    public static func iccDynamicData(dynamicNumber: [UInt8]) throws -> [UInt8] {
        guard (2...8).contains(dynamicNumber.count) else {
            throw ODAError(.invalidInput, "ICC dynamic number must be 2 to 8 bytes")
        }
        return [UInt8(dynamicNumber.count)] + dynamicNumber
    }

    /// Splits `L | number` off the front of ICC dynamic data.
    static func dynamicNumber(in data: [UInt8]) throws -> (number: [UInt8], rest: ArraySlice<UInt8>) {
        guard let length = data.first.map(Int.init), (2...8).contains(length), data.count > length else {
            throw ODAError(.malformedDynamicData, "ICC dynamic number length is not 2 to 8 or exceeds the data")
        }
        return (Array(data[1...length]), data[(length + 1)...])
    }
}
