extension SignedDynamicApplicationData {
    /// The response data the CDA Transaction Data Hash Code covers (EMV Book 2, 6.6.1): the data objects inside a
    /// GENERATE AC response template '77', as the card encoded them and in its order, without the Signed Dynamic
    /// Application Data (9F4B).
    ///
    /// - Throws: ``ODAError/malformedDynamicData`` when `response` is not a '77' template (format 1 responses
    ///   carry no CDA signature).
    public static func cdaResponseData(generateACResponse response: TLVNode) throws(ODAError) -> [UInt8] {
        guard response.tag == .responseMessageTemplateFormat2 else {
            throw ODAError(.malformedDynamicData, "a CDA response is a '77' template, not \(response.tag)")
        }
        var data: [UInt8] = []
        data.reserveCapacity(response.length)
        for object in response.children where object.tag != .signedDynamicApplicationData {
            data += object.encoded
        }
        return data
    }

    /// Runs CDA verification on a parsed GENERATE AC response (EMV Book 2, 6.6.2): opens its 9F4B with the ICC
    /// public key and checks it against its CID (9F27) and the transaction data.
    ///
    /// - Parameters:
    ///   - response: the response's '77' template.
    ///   - iccKey: the ICC public key.
    ///   - unpredictableNumber: the Unpredictable Number (9F37) sent in GENERATE AC.
    ///   - pdolData: the PDOL data sent in GET PROCESSING OPTIONS.
    ///   - cdol1Data: the CDOL1 data sent in the first GENERATE AC.
    ///   - cdol2Data: the CDOL2 data sent in a second GENERATE AC; nil for the first.
    /// - Throws: ``ODAError/missingData`` without 9F4B or a one-byte 9F27, ``ODAError/malformedDynamicData`` for a
    ///   response that is not a '77' template, and the errors of ``init(recovering:with:format:)`` and
    ///   ``verifyCDA(unpredictableNumber:cryptogramInformationData:pdolData:cdol1Data:cdol2Data:responseData:)``.
    public static func verifyCDA(
        generateACResponse response: TLVNode,
        iccKey: RSAPublicKey,
        unpredictableNumber: [UInt8],
        pdolData: [UInt8],
        cdol1Data: [UInt8],
        cdol2Data: [UInt8]? = nil
    ) throws -> CDADynamicData {
        let responseData = try cdaResponseData(generateACResponse: response)
        guard let signature = response.children.first(where: { $0.tag == .signedDynamicApplicationData }) else {
            throw ODAError(.missingData, "the GENERATE AC response has no signed dynamic application data (9F4B)")
        }
        guard let cid = response.children.first(where: { $0.tag == .cryptogramInformationData }),
            cid.length == 1, let cryptogramInformationData = cid.value.first
        else {
            throw ODAError(.missingData, "the GENERATE AC response has no one-byte cryptogram information data (9F27)")
        }
        return try SignedDynamicApplicationData(recovering: signature.value, with: iccKey).verifyCDA(
            unpredictableNumber: unpredictableNumber,
            cryptogramInformationData: cryptogramInformationData,
            pdolData: pdolData,
            cdol1Data: cdol1Data,
            cdol2Data: cdol2Data,
            responseData: responseData
        )
    }
}
