import EMV

// Kernel 2 (EMV Contactless Book C-2, Mastercard M/Chip) in EMV mode: GPO, records, processing restrictions, CVM
// selection, terminal action analysis, GENERATE AC with CDA.
extension KernelTransaction {
    /// Sets terminal capabilities byte 2 to the CVM capability for the amount and sends GET PROCESSING OPTIONS.
    mutating func startKernel2() -> KernelAction {
        let settings = configuration.kernel2
        let cvmRequired = indicators[Kernel.c2.id]?.cvmRequiredLimitExceeded == true
        if terminalCapabilities.count == 3 {
            terminalCapabilities[1] =
                cvmRequired ? settings.cvmCapabilityCVMRequired : settings.cvmCapabilityNoCVMRequired
        }
        return sendProcessingOptions(kernel: .c2)
    }

    /// Book C-2 3.x: EMV mode when both sides support it, else mag-stripe mode.
    mutating func chooseKernel2Mode(_ aip: ApplicationInterchangeProfile) -> KernelAction {
        let settings = configuration.kernel2
        if aip.contains(.emvModeSupported), settings.supportsEMVMode {
            return readNextRecord()
        }
        guard settings.supportsMagStripeMode else {
            return finish(.endApplication, .unsupportedCard("mag-stripe mode is not supported by this reader"))
        }
        events.append(.magStripeModeSelected)
        magStripeUnpredictableNumber = magStripeNumericUnpredictableNumber()
        return readNextRecord()
    }

    /// Processing restrictions, CVM selection, terminal risk management and action analysis, then GENERATE AC.
    mutating func analyseKernel2Transaction() -> KernelAction {
        for tag in [Tag.applicationPAN, .applicationExpirationDate, .cdol1] where card[tag] == nil {
            return finish(.endApplication, .missingCardData(tag))
        }
        guard let cdol1 = try? DataObjectList(card[.cdol1] ?? [], rules: .lenient) else {
            return finish(.endApplication, .invalidCardData("CDOL1 cannot be parsed"))
        }
        let aip = card[.applicationInterchangeProfile].flatMap { try? ApplicationInterchangeProfile(bytes: $0) } ?? []
        selectCombinedDataAuthentication(aip)
        checkProcessingRestrictions()
        let (cvm, results) = kernel2CardholderVerification(aip)
        cardholderVerification = cvm
        cvmResults = results
        events.append(.cardholderVerification(cvm, results: results))
        if indicators[Kernel.c2.id]?.floorLimitExceeded == true {
            terminalVerificationResults.insert(.floorLimitExceeded)
        }
        let cryptogram = terminalActionAnalysis()
        events.append(.terminalVerificationResults(terminalVerificationResults))
        let cda = cdaRequested && cryptogram != .aac
        cdaRequested = cda
        cdol1Data = cdol1.relatedData(kernel: .c2) { dataObjectValue($0) }
        events.append(.cryptogramRequested(cryptogram, cda: cda))
        guard let command = try? CommandAPDU.generateAC(cryptogram, cdaRequested: cda, cdolData: cdol1Data) else {
            return finish(.endApplication, .invalidCardData("CDOL1 asks for too much data"))
        }
        step = .generatingAC
        return send(command)
    }

    /// CDA when card and reader support it and the reader holds the card's CA key; otherwise the TVR says why not.
    private mutating func selectCombinedDataAuthentication(_ aip: ApplicationInterchangeProfile) {
        let readerSupportsCDA = terminalCapabilities.count == 3 && terminalCapabilities[2] & 0x08 != 0
        guard aip.contains(.cdaSupported), readerSupportsCDA else {
            terminalVerificationResults.insert(.offlineDataAuthenticationNotPerformed)
            return
        }
        guard let index = card.oda.caPublicKeyIndex, let rid = candidates.first?.adfName.prefix(5),
            (try? configuration.caPublicKeys.key(rid: Array(rid), index: index)) != nil
        else {
            terminalVerificationResults.insert(.cdaFailed)
            return
        }
        guard card.oda.issuerCertificate != nil, card.oda.iccCertificate != nil else {
            terminalVerificationResults.formUnion([.iccDataMissing, .cdaFailed])
            return
        }
        cdaRequested = true
    }

    /// EMV Book 3 10.4: application versions, expiry and effective dates.
    private mutating func checkProcessingRestrictions() {
        if let version = card[.applicationVersionNumberCard],
            version != candidates.first?.application.applicationVersion
        {
            terminalVerificationResults.insert(.differentApplicationVersions)
        }
        guard let today = transactionDate else { return }
        if let expiry = card[.applicationExpirationDate].flatMap({ try? ExpiryDate(tlvValue: $0[...]) }),
            expiry.isExpired(on: today)
        {
            terminalVerificationResults.insert(.expiredApplication)
        }
        if let effective = card[.applicationEffectiveDate].flatMap({ try? EMVDate(n6: $0) }), effective > today {
            terminalVerificationResults.insert(.applicationNotYetEffective)
        }
    }

    /// Book C-2 CVM selection: on device verification when card and reader support it, else the CVM list.
    private mutating func kernel2CardholderVerification(
        _ aip: ApplicationInterchangeProfile
    ) -> (CardholderVerification, CVMResults) {
        let cvmRequired = indicators[Kernel.c2.id]?.cvmRequiredLimitExceeded == true
        if aip.contains(.onDeviceCardholderVerificationSupported),
            configuration.kernel2.supportsOnDeviceCardholderVerification
        {
            // '01 00 02': the phone verified the cardholder; '3F 00 02': no CVM, as Book C-2 codes them.
            return cvmRequired
                ? (.consumerDevice, Self.results(code: 0x01, result: .successful))
                : (.noCVM, Self.results(code: 0x3F, result: .successful))
        }
        guard aip.contains(.cardholderVerificationSupported) else {
            return (.noCVM, Self.results(code: 0x3F, result: .unknown))
        }
        guard let list = card[.cvmList].flatMap({ try? CVMList(bytes: $0) }), !list.rules.isEmpty else {
            terminalVerificationResults.insert(.iccDataMissing)
            return (.noCVM, Self.results(code: 0x3F, result: .unknown))
        }
        let capability = terminalCapabilities.count == 3 ? terminalCapabilities[1] : 0
        for rule in list.rules {
            let method = rule.method
            let supported: (CardholderVerification, CVMResults.Result)? =
                switch method {
                case .encipheredPINOnline where capability & 0x40 != 0: (.onlinePIN, .unknown)
                case .signature where capability & 0x20 != 0: (.signature, .unknown)
                case .noCVMRequired where capability & 0x08 != 0: (.noCVM, .successful)
                case .failCVMProcessing: (.noCVM, .failed)
                default: nil
                }
            guard conditionSatisfied(rule.condition, list: list, supported: supported != nil) else { continue }
            if case let (cvm, result)? = supported {
                if method == .failCVMProcessing {
                    terminalVerificationResults.insert(.cardholderVerificationNotSuccessful)
                }
                if cvm == .onlinePIN { terminalVerificationResults.insert(.onlineCVMCaptured) }
                return (cvm, CVMResults(rule: rule, result: result))
            }
            if method.name.hasPrefix("Reserved") { terminalVerificationResults.insert(.unrecognisedCVM) }
            if !rule.applyNextIfUnsuccessful { break }
        }
        terminalVerificationResults.insert(.cardholderVerificationNotSuccessful)
        return (.noCVM, Self.results(code: 0x3F, result: .failed))
    }

    private static func results(code: UInt8, result: CVMResults.Result) -> CVMResults {
        CVMResults(rule: CVMRule(codeByte: code, condition: .always), result: result)
    }

    /// EMV Book 3 annex C3: whether a CV rule's condition holds for this transaction.
    private func conditionSatisfied(_ condition: CVMCondition, list: CVMList, supported: Bool) -> Bool {
        let inApplicationCurrency = card[.applicationCurrencyCode] == request.currency.emvCode
        let amount = request.amount.minorUnits
        switch condition {
        case .always: return true
        case .unattendedCash: return false
        case .notCashOrCashback: return request.type != .cash && request.type != .purchaseWithCashback
        case .terminalSupportsCVM: return supported
        case .manualCash: return request.type == .cash
        case .purchaseWithCashback: return request.type == .purchaseWithCashback
        case .underX: return inApplicationCurrency && amount < Int(list.amountX)
        case .overX: return inApplicationCurrency && amount > Int(list.amountX)
        case .underY: return inApplicationCurrency && amount < Int(list.amountY)
        case .overY: return inApplicationCurrency && amount > Int(list.amountY)
        default: return false
        }
    }

    /// EMV Book 3 10.7 with Book C-2's terminal action codes: AAC on a denial match, ARQC on an online match (this
    /// reader is online capable), TC otherwise; refunds always ask for an AAC.
    private func terminalActionAnalysis() -> CommandAPDU.CryptogramRequest {
        if request.type == .refund { return .aac }
        let tvr = terminalVerificationResults.bytes
        func matches(_ code: [UInt8]) -> Bool { zip(tvr, code).contains { $0 & $1 != 0 } }
        let settings = configuration.kernel2
        let all = [UInt8](repeating: 0xFF, count: 5)
        if matches(settings.terminalActionCodeDenial) || matches(card[.issuerActionCodeDenial] ?? []) { return .aac }
        if matches(settings.terminalActionCodeOnline) || matches(card[.issuerActionCodeOnline] ?? all) { return .arqc }
        return .tc
    }

    /// The GENERATE AC response: DF4B, CDA, and the outcome.
    mutating func receiveApplicationCryptogram(_ response: ResponseAPDU) -> KernelAction {
        guard response.statusWord == .success else {
            if response.statusWord == .commandNotAllowedNoCurrentEF {
                return seePhone()
            }
            return finish(.endApplication, .cardStatus(command: "GENERATE AC", response.statusWord))
        }
        guard let template = try? TLV.parseOne(response.data, rules: .lenient) else {
            return finish(.endApplication, .invalidCardData("the GENERATE AC response cannot be parsed"))
        }
        switch template.tag {
        case .responseMessageTemplateFormat2:
            card.replace(with: template.children)
        case .responseMessageTemplateFormat1 where template.length >= 11:
            let value = Array(template.value)
            card[.cryptogramInformationData] = [value[0]]
            card[.applicationTransactionCounter] = Array(value[1..<3])
            card[.applicationCryptogram] = Array(value[3..<11])
            card[.issuerApplicationData] = Array(value[11...])
        default:
            return finish(.endApplication, .invalidCardData("the GENERATE AC response is not a template"))
        }
        guard let cid = card[.cryptogramInformationData]?.first, let atc = card[.applicationTransactionCounter] else {
            return finish(.endApplication, .missingCardData(.cryptogramInformationData))
        }
        events.append(.cryptogramReceived(type: Self.cryptogramName(cid), atc: atc))
        if cid & 0xC0 == 0x00, Self.needsPhoneInteraction(card[0xDF4B]) {
            return seePhone()
        }
        let oda: OfflineDataAuthentication
        if cdaRequested, cid & 0xC0 != 0x00 {
            oda = verifyCombinedDataAuthentication(template)
        } else if cdaRequested {
            oda = .notPerformed("the card declined, so it signed nothing")
        } else {
            oda = .notPerformed("CDA not possible: \(terminalVerificationResults)")
        }
        events.append(.offlineDataAuthentication(oda))
        if oda.failed {
            // Book C-2: a CDA failure ends the application ("CAM failed"); no cryptogram leaves the reader.
            return finish(.endApplication, .offlineDataAuthenticationFailed)
        }
        guard card[.applicationCryptogram] != nil else {
            return finish(.endApplication, .missingCardData(.applicationCryptogram))
        }
        let data = emvAuthorizationData()
        switch cid & 0xC0 {
        case 0x80: return finish(.onlineRequest, .onlineAuthorizationRequested, authorizationData: data)
        case 0x40: return finish(.approved, .approvedOffline, authorizationData: data)
        case 0x00: return finish(.declined, .declinedByCard, authorizationData: data)
        default: return finish(.endApplication, .invalidCardData("cryptogram information data"))
        }
    }

    /// Book C-2: the card declined because the cardholder must act on the phone (POS Cardholder Interaction
    /// Information DF4B has any of the bits of mask `00 03 0F` set).
    static func needsPhoneInteraction(_ information: [UInt8]?) -> Bool {
        guard let information, information.count >= 3 else { return false }
        return information[1] & 0x03 != 0 || information[2] & 0x0F != 0
    }

    /// CDA (EMV Book 2 6.6): recovers the ICC key, verifies the signature over the transaction data and takes the
    /// Application Cryptogram from inside it.
    private mutating func verifyCombinedDataAuthentication(_ template: TLVNode) -> OfflineDataAuthentication {
        do {
            let iccKey = try recoverICCPublicKey()
            let dynamicData = try SignedDynamicApplicationData.verifyCDA(
                generateACResponse: template, iccKey: iccKey, unpredictableNumber: environment.unpredictableNumber,
                pdolData: pdolData, cdol1Data: cdol1Data)
            card[.applicationCryptogram] = dynamicData.applicationCryptogram
            return .succeeded(.cda)
        } catch {
            terminalVerificationResults.insert(.cdaFailed)
            return .failed(.cda, reason: Self.failureName(error))
        }
    }
}
