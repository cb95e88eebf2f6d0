import EMV
import Foundation

// Assembling what the card returns from the profile's fields: data objects by tag, records and AFL, FCIs, the PSE
// directory and the ICC certificate over the static data.
extension CardProfile {
    /// The account's PAN, checked.
    func accountPAN() throws(CardEmulatorError) -> PAN {
        guard let value = try? PAN(pan) else {
            throw CardEmulatorError(.invalidProfile, "pan is not 12 to 19 digits with a valid check digit")
        }
        return value
    }

    /// The expiry month, from `YYYY-MM`.
    func expiryDate() throws(CardEmulatorError) -> ExpiryDate {
        let parts = expiry.split(separator: "-")
        guard parts.count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
            let date = try? ExpiryDate(year: year, month: month)
        else {
            throw CardEmulatorError(.invalidProfile, "expiry must be YYYY-MM")
        }
        return date
    }

    func track2() throws(CardEmulatorError) -> Track2EquivalentData {
        do {
            return try Track2EquivalentData(
                pan: try accountPAN(), expiry: try expiryDate(), serviceCode: serviceCode,
                discretionaryData: track2DiscretionaryData)
        } catch let error as CardEmulatorError {
            throw error
        } catch {
            throw CardEmulatorError(.invalidProfile, "serviceCode or track2DiscretionaryData do not make track 2")
        }
    }

    func panSequenceNumberBytes() throws(CardEmulatorError) -> [UInt8] {
        guard panSequenceNumber.count == 2, panSequenceNumber.allSatisfy(\.isNumber),
            let bytes = [UInt8](hex: panSequenceNumber)
        else {
            throw CardEmulatorError(.invalidProfile, "panSequenceNumber must be two digits")
        }
        return bytes
    }

    /// Tags a record may name that the card leaves out when it has no value: remainders that turned out empty, the
    /// cardholder name.
    static let optionalRecordTags: Set<Tag> = [.issuerPublicKeyRemainder, .iccPublicKeyRemainder, .cardholderName]

    /// Every data object a record may name, by tag.
    func dataObjects() throws(CardEmulatorError) -> [Tag: [UInt8]] {
        var objects: [Tag: [UInt8]] = [:]
        let track2 = try track2()
        objects[.applicationPAN] = track2.pan.bcd
        objects[.applicationExpirationDate] = track2.expiry.tlvValue
        objects[.panSequenceNumber] = try panSequenceNumberBytes()
        objects[.track2EquivalentData] = track2.bytes
        objects[.issuerCountryCode] = issuerCountryCode.bytes
        objects[.applicationCurrencyCode] = applicationCurrencyCode.bytes
        if let serviceCode = [UInt8](hex: "0" + serviceCode) { objects[.serviceCode] = serviceCode }
        if let cardholderName { objects[.cardholderName] = Array(cardholderName.utf8) }
        if let cdol1 { objects[.cdol1] = cdol1.bytes }
        if let cdol2 { objects[.cdol2] = cdol2.bytes }
        if let cvmList { objects[.cvmList] = cvmList.bytes }
        if let codes = issuerActionCodes {
            objects[.issuerActionCodeDefault] = codes.default.bytes
            objects[.issuerActionCodeDenial] = codes.denial.bytes
            objects[.issuerActionCodeOnline] = codes.online.bytes
        }
        if let oda = offlineDataAuthentication {
            objects[.caPublicKeyIndex] = [oda.caPublicKeyIndex]
            objects[.issuerPublicKeyCertificate] = oda.issuerCertificate.bytes
            if !oda.issuerRemainder.bytes.isEmpty { objects[.issuerPublicKeyRemainder] = oda.issuerRemainder.bytes }
            objects[.issuerPublicKeyExponent] = oda.issuerExponent.bytes
            objects[.iccPublicKeyExponent] = oda.iccPrivateKey.publicKey.exponent
            if let certificate = oda.iccCertificate { objects[.iccPublicKeyCertificate] = certificate.bytes }
            if let remainder = oda.iccRemainder, !remainder.bytes.isEmpty {
                objects[.iccPublicKeyRemainder] = remainder.bytes
            }
            objects[.staticDataAuthenticationTagList] = [0x82]
            if scheme == .visa, let data = oda.cardAuthenticationRelatedData {
                objects[.cardAuthenticationRelatedData] = data.bytes
            }
        }
        if let magStripe {
            objects[.track1Data] = Array(magStripe.track1.utf8)
            objects[.track2Data] = magStripe.track2.bytes
            objects[0x9F62] = magStripe.pcvc3Track1.bytes
            objects[0x9F63] = magStripe.punatcTrack1.bytes
            objects[0x9F64] = [magStripe.natcTrack1]
            objects[0x9F65] = magStripe.pcvc3Track2.bytes
            objects[0x9F66] = magStripe.punatcTrack2.bytes
            objects[0x9F67] = [magStripe.natcTrack2]
            objects[.udol] = magStripe.udol.bytes
            objects[.magStripeApplicationVersionNumberCard] = magStripe.applicationVersionNumber.bytes
        }
        for (text, value) in additionalData {
            guard let bytes = [UInt8](hex: text), let tag = Tag(bytes: bytes) else {
                throw CardEmulatorError(.invalidProfile, "additionalData key \"\(text)\" is not a tag")
            }
            objects[tag] = value.bytes
        }
        return objects
    }

    /// The records' encodings by key, and the AFL computed from the layout.
    func assembleRecords(_ objects: [Tag: [UInt8]]) throws(CardEmulatorError) -> ([UInt16: [UInt8]], [UInt8]) {
        var contents: [UInt16: [UInt8]] = [:]
        // AFL entries in order of each file's first record: SFI, first, last, ODA count.
        var entries: [(sfi: UInt8, first: UInt8, last: UInt8, oda: UInt8)] = []
        for record in records {
            guard (1...30).contains(record.sfi), record.number >= 1 else {
                throw CardEmulatorError(.invalidProfile, "record SFI \(record.sfi) number \(record.number) out of range")
            }
            let key = CardImage.recordKey(sfi: record.sfi, number: record.number)
            guard contents[key] == nil else {
                throw CardEmulatorError(.invalidProfile, "record \(record.number) of SFI \(record.sfi) appears twice")
            }
            contents[key] = try encode(record, objects)
            if let last = entries.last, last.sfi == record.sfi, record.number == last.last &+ 1 {
                guard !record.offlineDataAuthentication || last.oda == last.last - last.first + 1 else {
                    throw CardEmulatorError(
                        .invalidProfile, "ODA records must come first in SFI \(record.sfi)")
                }
                entries[entries.count - 1].last = record.number
                if record.offlineDataAuthentication { entries[entries.count - 1].oda += 1 }
            } else {
                entries.append((record.sfi, record.number, record.number, record.offlineDataAuthentication ? 1 : 0))
            }
        }
        let afl = entries.flatMap { [$0.sfi << 3, $0.first, $0.last, $0.oda] }
        return (contents, afl)
    }

    private func encode(_ record: Record, _ objects: [Tag: [UInt8]]) throws(CardEmulatorError) -> [UInt8] {
        do {
            return try TLV.Serializer.serialize { serializer in
                try serializer.appendConstructed(tag: .recordTemplate) { template in
                    for text in record.tags {
                        guard let bytes = [UInt8](hex: text), let tag = Tag(bytes: bytes) else {
                            throw CardEmulatorError(.invalidProfile, "record tag \"\(text)\" is not a tag")
                        }
                        if objects[tag] == nil, Self.optionalRecordTags.contains(tag) { continue }
                        guard let value = objects[tag] else {
                            throw CardEmulatorError(
                                .missingData, "record \(record.number) of SFI \(record.sfi) names \(tag), which has no value")
                        }
                        try template.append(tag: tag, value: value)
                    }
                }
            }
        } catch let error as CardEmulatorError {
            throw error
        } catch {
            throw CardEmulatorError(.invalidProfile, "record \(record.number) of SFI \(record.sfi) does not encode")
        }
    }

    func staticData(records: [UInt16: [UInt8]], afl: [UInt8]) throws(CardEmulatorError) -> [UInt8] {
        do {
            return try StaticDataToBeAuthenticated(
                afl: afl,
                record: { records[CardImage.recordKey(sfi: $0, number: $1)] },
                applicationInterchangeProfile: applicationInterchangeProfile.bytes,
                staticDataAuthenticationTagList: offlineDataAuthentication == nil ? nil : [0x82]
            ).bytes
        } catch {
            throw CardEmulatorError(.offlineDataAuthenticationFailed, "static data does not assemble")
        }
    }

    func certifyICCKey(_ oda: OfflineDataAuthentication, staticData: [UInt8]) throws(CardEmulatorError)
        -> IssuedCertificate
    {
        guard let issuerKey = oda.issuerPrivateKey else {
            throw CardEmulatorError(.missingData, "no ICC certificate and no issuer private key to make one")
        }
        guard let expiration = CertificateExpiration(mmyy: oda.iccCertificateExpiration.bytes) else {
            throw CardEmulatorError(.invalidProfile, "iccCertificateExpiration must be MMYY")
        }
        do {
            return try issuerKey.issueICCCertificate(
                for: oda.iccPrivateKey.publicKey, pan: try accountPAN().bcd, expiration: expiration,
                serialNumber: oda.iccCertificateSerialNumber.bytes, staticData: staticData)
        } catch let error as CardEmulatorError {
            throw error
        } catch {
            throw CardEmulatorError(.offlineDataAuthenticationFailed, "certifying the ICC key failed")
        }
    }

    /// `6F { 84 DF name, A5 { 88 SFI | BF0C { 61 … } } }`: the PPSE lists the applications in its FCI, the PSE names
    /// its directory file (SFI 1).
    func directoryFCI(name: [UInt8], contactless: Bool) throws(CardEmulatorError) -> [UInt8] {
        try encodeOrFail("directory FCI") { serializer in
            try serializer.appendConstructed(tag: .fileControlInformationTemplate) { fci in
                try fci.append(tag: .dedicatedFileName, value: name)
                try fci.appendConstructed(tag: .fciProprietaryTemplate) { proprietary in
                    if contactless {
                        try proprietary.appendConstructed(tag: .fciIssuerDiscretionaryData) { discretionary in
                            for application in applications {
                                try appendDirectoryEntry(application, kernel: true, into: &discretionary)
                            }
                        }
                    } else {
                        try proprietary.append(tag: 0x88, value: [0x01])
                        if let languagePreference {
                            try proprietary.append(tag: .languagePreference, value: Array(languagePreference.utf8))
                        }
                    }
                }
            }
        }
    }

    /// The PSE directory record: `70 { 61 { 4F, 50, 87 } … }`.
    func pseRecord() throws(CardEmulatorError) -> [UInt8] {
        try encodeOrFail("PSE record") { serializer in
            try serializer.appendConstructed(tag: .recordTemplate) { record in
                for application in applications { try appendDirectoryEntry(application, kernel: false, into: &record) }
            }
        }
    }

    private func appendDirectoryEntry(_ application: Application, kernel: Bool, into serializer: inout TLV.Serializer)
        throws
    {
        try serializer.appendConstructed(tag: .applicationTemplate) { entry in
            try entry.append(tag: .applicationIdentifier, value: application.aid.bytes)
            try entry.append(tag: .applicationLabel, value: Array(application.label.utf8))
            try entry.append(tag: .applicationPriorityIndicator, value: [application.priority])
            if kernel { try entry.append(tag: .kernelIdentifier, value: application.kernelIdentifier.bytes) }
        }
    }

    /// `6F { 84 AID, A5 { 50, 87, 9F38, 5F2D } }`.
    func applicationFCI(_ application: Application) throws(CardEmulatorError) -> [UInt8] {
        try encodeOrFail("application FCI") { serializer in
            try serializer.appendConstructed(tag: .fileControlInformationTemplate) { fci in
                try fci.append(tag: .dedicatedFileName, value: application.aid.bytes)
                try fci.appendConstructed(tag: .fciProprietaryTemplate) { proprietary in
                    try proprietary.append(tag: .applicationLabel, value: Array(application.label.utf8))
                    try proprietary.append(tag: .applicationPriorityIndicator, value: [application.priority])
                    if let pdol { try proprietary.append(tag: .pdol, value: pdol.bytes) }
                    if let languagePreference {
                        try proprietary.append(tag: .languagePreference, value: Array(languagePreference.utf8))
                    }
                }
            }
        }
    }

    private func encodeOrFail(_ what: String, _ body: (inout TLV.Serializer) throws -> Void) throws(CardEmulatorError)
        -> [UInt8]
    {
        do {
            return try TLV.Serializer.serialize(body)
        } catch {
            throw CardEmulatorError(.invalidProfile, "the \(what) does not encode (a value is too long)")
        }
    }
}
