import Crypto

/// The ICC Dynamic Data of a CDA signature (EMV Book 2, 6.6.1 and table 19): ICC Dynamic Number, Cryptogram
/// Information Data, Application Cryptogram and Transaction Data Hash Code.
public struct CDADynamicData: Hashable, Sendable {
    /// The ICC Dynamic Number (2 to 8 bytes).
    public let iccDynamicNumber: [UInt8]
    /// The Cryptogram Information Data (tag 9F27) the card signed.
    public let cryptogramInformationData: UInt8
    /// The Application Cryptogram (tag 9F26, 8 bytes), which CDA carries only inside the signature.
    public let applicationCryptogram: [UInt8]
    /// SHA-1 of the transaction data: PDOL, CDOL1 (and CDOL2) data and the GENERATE AC response.
    public let transactionDataHashCode: [UInt8]

    /// Creates the dynamic data the card signs.
    ///
    /// - Throws: ``ODAError/invalidInput`` for wrong lengths.
    public init(
        iccDynamicNumber: [UInt8],
        cryptogramInformationData: UInt8,
        applicationCryptogram: [UInt8],
        transactionDataHashCode: [UInt8]
    ) throws {
        guard (2...8).contains(iccDynamicNumber.count), applicationCryptogram.count == 8,
            transactionDataHashCode.count == 20
        else {
            throw ODAError(.invalidInput, "CDA dynamic data needs a 2-8 byte number, 8-byte cryptogram, 20-byte hash")
        }
        self.iccDynamicNumber = iccDynamicNumber
        self.cryptogramInformationData = cryptogramInformationData
        self.applicationCryptogram = applicationCryptogram
        self.transactionDataHashCode = transactionDataHashCode
    }

    /// Parses the ICC dynamic data recovered from a CDA signature; bytes after the hash code are ignored.
    ///
    /// - Throws: ``ODAError/malformedDynamicData`` when the data is too short for the CDA layout.
    public init(_ iccDynamicData: [UInt8]) throws {
        let (number, rest) = try SignedDynamicApplicationData.dynamicNumber(in: iccDynamicData)
        guard rest.count >= 29 else {
            throw ODAError(.malformedDynamicData, "CDA dynamic data too short for CID, cryptogram and hash code")
        }
        let start = rest.startIndex
        try self.init(
            iccDynamicNumber: number,
            cryptogramInformationData: rest[start],
            applicationCryptogram: Array(rest[(start + 1)..<(start + 9)]),
            transactionDataHashCode: Array(rest[(start + 9)..<(start + 29)])
        )
    }

    /// The bytes the card signs: `L | number | CID | AC | hash code`.
    public var bytes: [UInt8] {
        [UInt8(iccDynamicNumber.count)] + iccDynamicNumber + [cryptogramInformationData] + applicationCryptogram
            + transactionDataHashCode
    }

    /// The Transaction Data Hash Code (EMV Book 2, 6.6.1): SHA-1 of the PDOL data sent in GET PROCESSING OPTIONS,
    /// the CDOL1 data sent in the first GENERATE AC, the CDOL2 data for a second GENERATE AC, and the TLV-coded data
    /// objects of the GENERATE AC response in the order returned, without the Signed Dynamic Application Data (9F4B).
    public static func transactionDataHashCode(
        pdolData: [UInt8],
        cdol1Data: [UInt8],
        cdol2Data: [UInt8]? = nil,
        responseData: [UInt8]
    ) -> [UInt8] {
        var sha = Insecure.SHA1()
        sha.update(data: pdolData)
        sha.update(data: cdol1Data)
        if let cdol2Data { sha.update(data: cdol2Data) }
        sha.update(data: responseData)
        return Array(sha.finalize())
    }
}

extension SignedDynamicApplicationData {
    /// Runs CDA signature verification (EMV Book 2, 6.6.2 steps 5 to 9) and returns the signed dynamic data, with
    /// the Application Cryptogram the terminal may now use.
    ///
    /// - Parameters:
    ///   - unpredictableNumber: the Unpredictable Number (9F37) sent in GENERATE AC: the terminal dynamic data.
    ///   - cryptogramInformationData: the CID (9F27) in the GENERATE AC response.
    ///   - pdolData: the PDOL data sent in GET PROCESSING OPTIONS.
    ///   - cdol1Data: the CDOL1 data sent in the first GENERATE AC.
    ///   - cdol2Data: the CDOL2 data sent in a second GENERATE AC; nil for the first.
    ///   - responseData: the GENERATE AC response's data objects without 9F4B (see
    ///     ``CDADynamicData/transactionDataHashCode(pdolData:cdol1Data:cdol2Data:responseData:)`` and
    ///     ``cdaResponseData(generateACResponse:)``).
    /// - Throws: ``ODAError/unsupportedHashAlgorithm``, ``ODAError/hashMismatch``,
    ///   ``ODAError/malformedDynamicData``, ``ODAError/cryptogramInformationMismatch``,
    ///   ``ODAError/transactionDataHashMismatch``.
    public func verifyCDA(
        unpredictableNumber: [UInt8],
        cryptogramInformationData: UInt8,
        pdolData: [UInt8],
        cdol1Data: [UInt8],
        cdol2Data: [UInt8]? = nil,
        responseData: [UInt8]
    ) throws -> CDADynamicData {
        try verify(terminalDynamicData: unpredictableNumber)
        let dynamic = try CDADynamicData(iccDynamicData)
        guard dynamic.cryptogramInformationData == cryptogramInformationData else {
            throw ODAError(.cryptogramInformationMismatch, "signed CID differs from the CID in the response")
        }
        let expected = CDADynamicData.transactionDataHashCode(
            pdolData: pdolData,
            cdol1Data: cdol1Data,
            cdol2Data: cdol2Data,
            responseData: responseData
        )
        guard dynamic.transactionDataHashCode == expected else {
            throw ODAError(.transactionDataHashMismatch, "transaction data hash code does not match")
        }
        return dynamic
    }
}
