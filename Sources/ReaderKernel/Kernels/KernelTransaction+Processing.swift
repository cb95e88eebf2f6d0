import EMV
import Foundation

// Steps both kernels share: GET PROCESSING OPTIONS, READ RECORD per AFL, certificate recovery and the
// authorisation data.
extension KernelTransaction {
    /// Builds the PDOL data and sends GET PROCESSING OPTIONS.
    mutating func sendProcessingOptions(kernel: Kernel) -> KernelAction {
        let pdol: DataObjectList
        do {
            pdol = try DataObjectList(card[.pdol] ?? [], rules: .lenient)
        } catch {
            return finish(.endApplication, .invalidCardData("the PDOL cannot be parsed"))
        }
        pdolData = pdol.relatedData(kernel: kernel) { dataObjectValue($0) }
        guard let command = try? CommandAPDU.getProcessingOptions(pdolData: pdolData) else {
            return finish(.endApplication, .invalidCardData("the PDOL asks for too much data"))
        }
        step = .gettingProcessingOptions
        return send(command)
    }

    /// Book C-3 5.2 / C-2 3.x: the GET PROCESSING OPTIONS response.
    mutating func receiveProcessingOptions(_ response: ResponseAPDU) -> KernelAction {
        let kernel = selectedKernel ?? .generic
        switch response.statusWord {
        case .success:
            break
        case .commandNotAllowedNoCurrentEF:  // 6986: the wallet wants the cardholder to unlock the phone first
            return seePhone()
        case .referencedDataInvalidated where kernel == .c3:  // 6984
            return finish(.tryAnotherInterface, .cardRequestedAnotherInterface)
        case .conditionsOfUseNotSatisfied:  // 6985: Select Next (Books C-2 and C-3)
            return selectNext(.cardStatus(command: "GET PROCESSING OPTIONS", response.statusWord))
        default:
            let reason = OutcomeReason.cardStatus(command: "GET PROCESSING OPTIONS", response.statusWord)
            return kernel == .c2 ? selectNext(reason) : finish(.endApplication, reason)
        }
        guard let template = try? TLV.parseOne(response.data, rules: .lenient) else {
            return finish(.endApplication, .invalidCardData("the GET PROCESSING OPTIONS response cannot be parsed"))
        }
        switch template.tag {
        case .responseMessageTemplateFormat2:
            card.store(template.children)
        case .responseMessageTemplateFormat1 where template.length >= 2:
            // Format 1: the AIP then the AFL, untagged.
            card[.applicationInterchangeProfile] = Array(template.value.prefix(2))
            card[.applicationFileLocator] = Array(template.value.dropFirst(2))
        default:
            return finish(.endApplication, .invalidCardData("the GET PROCESSING OPTIONS response is not a template"))
        }
        guard let aipBytes = card[.applicationInterchangeProfile],
            let aip = try? ApplicationInterchangeProfile(bytes: aipBytes)
        else {
            return finish(.endApplication, .missingCardData(.applicationInterchangeProfile))
        }
        guard let records = ApplicationFileLocator(bytes: card[.applicationFileLocator] ?? [])?.records else {
            return finish(.endApplication, .invalidCardData("the AFL is malformed"))
        }
        pendingRecords = records
        events.append(.processingOptions(aip, recordCount: records.count))
        if kernel == .c2 {
            return chooseKernel2Mode(aip)
        }
        return readNextRecord()
    }

    /// Reads the next record, or goes on with the kernel when all are read.
    mutating func readNextRecord() -> KernelAction {
        guard let next = pendingRecords.first else { return recordsRead() }
        guard let command = try? CommandAPDU.readRecord(next.number, sfi: next.sfi) else {
            return finish(.endApplication, .invalidCardData("the AFL names an invalid record"))
        }
        step = .readingRecords
        return send(command)
    }

    /// One READ RECORD response: kept whole for ODA and parsed into the card data.
    mutating func receiveRecord(_ response: ResponseAPDU) -> KernelAction {
        guard !pendingRecords.isEmpty else { return finish(.endApplication, .tooManyCommands) }
        let reference = pendingRecords.removeFirst()
        guard response.statusWord == .success else {
            return finish(.endApplication, .cardStatus(command: "READ RECORD", response.statusWord))
        }
        guard let template = try? TLV.parseOne(response.data, rules: .lenient),
            template.tag == .recordTemplate
        else {
            return finish(.endApplication, .invalidCardData("a record is not a '70' template"))
        }
        card.records[CardData.RecordKey(sfi: reference.sfi, number: reference.number)] = response.data
        card.store(template.children)
        return readNextRecord()
    }

    /// All records are read: the kernel decides.
    mutating func recordsRead() -> KernelAction {
        switch selectedKernel {
        case .c3?: return completeKernel3()
        case .c2?: return magStripeUnpredictableNumber.isEmpty ? analyseKernel2Transaction() : sendChecksum()
        default: return finish(.endApplication, .candidatesExhausted)
        }
    }

    /// The Application PAN, from 5A or else from track 2.
    var applicationPAN: PAN? {
        if let bcd = card[.applicationPAN], let pan = try? PAN(bcd: bcd, requireLuhn: false) { return pan }
        return track2?.pan
    }

    /// Track 2 equivalent data (57), when present and well formed.
    var track2: Track2EquivalentData? {
        card[.track2EquivalentData].flatMap { try? Track2EquivalentData(bytes: $0, requireLuhn: false) }
    }

    /// Recovers the ICC public key: issuer certificate with the CA key, ICC certificate over the static data
    /// (EMV Book 2, 5 and 6.4).
    func recoverICCPublicKey() throws -> RSAPublicKey {
        guard !card.odaDataDuplicated else {
            throw ODAError(.duplicateDataObject, "the card sent an ODA data object twice")
        }
        guard let candidate = candidates.first, let pan = applicationPAN?.bcd else {
            throw ODAError(.missingData, "no application PAN")
        }
        let panBytes = card[.applicationPAN] ?? pan
        let issuerKey = try card.oda.issuerPublicKey(
            caKeys: configuration.caPublicKeys, rid: Array(candidate.adfName.prefix(5)), pan: panBytes,
            on: environment.date)
        let records = card.records
        let staticData = try StaticDataToBeAuthenticated(
            afl: card[.applicationFileLocator] ?? [],
            record: { records[CardData.RecordKey(sfi: $0, number: $1)] },
            applicationInterchangeProfile: card[.applicationInterchangeProfile],
            staticDataAuthenticationTagList: card.oda.staticDataAuthenticationTagList)
        return try card.oda.iccPublicKey(
            issuerKey: issuerKey, staticData: staticData, pan: panBytes, on: environment.date)
    }

    /// The name of a failed ODA check for transcripts: an `ODAError` code, never data.
    static func failureName(_ error: any Error) -> String {
        if let error = error as? ODAError { return "\(error.code)" }
        if let error = error as? TLVError { return "\(error.code)" }
        return "\(type(of: error))"
    }

    /// The authorisation data of an EMV-mode transaction: field 55 from the values the card's cryptogram covers.
    func emvAuthorizationData(extraTags: [Tag] = []) -> CardAuthorizationData? {
        guard let pan = applicationPAN else { return nil }
        let tags: [Tag] =
            [
                .applicationCryptogram, .cryptogramInformationData, .issuerApplicationData, .unpredictableNumber,
                .applicationTransactionCounter, .terminalVerificationResults, .transactionDate, .transactionType,
                .amountAuthorised, .amountOther, .transactionCurrencyCode, .applicationInterchangeProfile,
                .dedicatedFileName, .terminalCountryCode, .terminalCapabilities, .cvmResults, .terminalType,
                .applicationVersionNumberTerminal, .thirdPartyData, 0x9F1E,
            ] + extraTags
        var serializer = TLV.Serializer()
        for tag in tags {
            let value = tag == .dedicatedFileName ? card[tag] ?? candidates.first?.adfName : dataObjectValue(tag)
            guard let value else { continue }
            try? serializer.append(tag: tag, value: value)
        }
        let expiry =
            card[.applicationExpirationDate].flatMap { try? ExpiryDate(tlvValue: $0[...]) } ?? track2?.expiry
        return CardAuthorizationData(
            mode: .emv, iccData: serializer.bytes, pan: pan, panSequenceNumber: card[.panSequenceNumber]?.first,
            expiry: expiry, track2: track2)
    }
}
