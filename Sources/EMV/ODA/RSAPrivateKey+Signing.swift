import Foundation

// The signing side of offline data authentication for issuers (ICC certificates, static data) and cards (dynamic
// data); CAs certify issuer keys in TestCertificateAuthority. Each builds the block the matching recovery type opens.
extension RSAPrivateKey {
    /// As an issuer: issues an ICC Public Key Certificate (EMV Book 2, table 14) over the card's static data.
    ///
    /// - Parameters:
    ///   - iccKey: the card's key; not longer than this key.
    ///   - pan: the Application PAN (tag 5A) as `cn`.
    ///   - expiration: the last month the certificate is valid.
    ///   - serialNumber: 3 bytes.
    ///   - staticData: the static data to be authenticated, as the terminal will assemble it.
    /// - Throws: ``ODAError/invalidInput`` or ``ODAError/keyTooLong`` for unusable arguments.
    public func issueICCCertificate(
        for iccKey: RSAPublicKey,
        pan: [UInt8],
        expiration: CertificateExpiration,
        serialNumber: [UInt8],
        staticData: [UInt8]
    ) throws -> IssuedCertificate {
        guard let digits = try? BCD.compressedNumericDigits(pan), !digits.isEmpty,
            let paddedPAN = BCD.compressedNumeric(digits, byteCount: 10)
        else {
            throw ODAError(.invalidInput, "PAN must be 1 to 20 digits in cn format")
        }
        let fields = CertificateFields(identifier: paddedPAN, expiration: expiration, serialNumber: serialNumber)
        return try certify(iccKey, format: ICCPublicKeyCertificate.format, fields: fields, extraHashed: [staticData])
    }

    /// As an issuer: signs static application data for SDA (EMV Book 2, table 7), giving tag 93.
    ///
    /// - Throws: ``ODAError/invalidInput`` when the data authentication code is not 2 bytes.
    public func signStaticApplicationData(_ staticData: [UInt8], dataAuthenticationCode: [UInt8]) throws -> [UInt8] {
        guard dataAuthenticationCode.count == 2 else {
            throw ODAError(.invalidInput, "data authentication code must be 2 bytes")
        }
        let padding = SignedDataFrame.padding(modulusLength - 26)
        return try SignedDataFrame.sign(
            format: SignedStaticApplicationData.format,
            data: [SignedDataFrame.sha1Indicator] + dataAuthenticationCode + padding,
            extra: [staticData],
            with: self
        )
    }

    /// As a card: signs dynamic data for DDA, fDDA or CDA (EMV Book 2, table 17), giving tag 9F4B.
    ///
    /// - Parameters:
    ///   - iccDynamicData: from ``SignedDynamicApplicationData/iccDynamicData(dynamicNumber:)`` for DDA and fDDA or
    ///     ``CDADynamicData/bytes`` for CDA; at most N_IC - 25 bytes.
    ///   - terminalDynamicData: the DDOL data, the fDDA input, or the Unpredictable Number for CDA.
    /// - Throws: ``ODAError/invalidInput`` when the dynamic data does not fit.
    public func signDynamicApplicationData(iccDynamicData: [UInt8], terminalDynamicData: [UInt8]) throws -> [UInt8] {
        try signDynamicData(
            format: SignedDynamicApplicationData.format, iccDynamicData: iccDynamicData,
            terminalDynamicData: terminalDynamicData)
    }

    /// What the signer chooses in a certificate besides the key.
    struct CertificateFields {
        var identifier: [UInt8]
        var expiration: CertificateExpiration
        var serialNumber: [UInt8]
    }

    /// The certificate layout shared by issuer and ICC certificates: identifier | MMYY | serial | '01' | '01' |
    /// N | exponent length | modulus (or its leftmost bytes, or padded with 'BB').
    func certify(
        _ key: RSAPublicKey,
        format: UInt8,
        fields: CertificateFields,
        extraHashed: [[UInt8]] = []
    ) throws -> IssuedCertificate {
        guard fields.serialNumber.count == 3 else { throw ODAError(.invalidInput, "serial number must be 3 bytes") }
        guard key.modulusLength <= modulusLength else {
            throw ODAError(
                .keyTooLong, "cannot certify a \(key.modulusLength)-byte key with a \(modulusLength)-byte key")
        }
        let header =
            fields.identifier + fields.expiration.mmyy + fields.serialNumber
            + [
                SignedDataFrame.sha1Indicator, SignedDataFrame.rsaIndicator, UInt8(key.modulusLength),
                UInt8(key.exponent.count),
            ]
        let room = modulusLength - SignedDataFrame.overhead - header.count
        let inCertificate = Array(key.modulus.prefix(room))
        let remainder = Array(key.modulus.dropFirst(room))
        let certificate = try SignedDataFrame.sign(
            format: format,
            data: header + inCertificate + SignedDataFrame.padding(room - inCertificate.count),
            extra: [remainder, key.exponent] + extraHashed,
            with: self
        )
        return IssuedCertificate(certificate: certificate, remainder: remainder, exponent: key.exponent)
    }
}
