import EMV

extension EmulatedCard {
    /// POS Cardholder Interaction Information (tag DF4B, EMV Contactless Book C-2): byte 2 bit 5 "OD-CVM verification
    /// successful", byte 2 bit 1 "PIN required" (on the phone: the kernel shows "see phone").
    enum CardholderInteraction {
        static let verified: [UInt8] = [0x00, 0x10, 0x00]
        static let verificationRequired: [UInt8] = [0x00, 0x01, 0x00]
        static let none: [UInt8] = [0x00, 0x00, 0x00]
    }

    /// The CVM Results (9F34) a Kernel 2 reader sends when it relies on the card's on-device CVM.
    static let consumerDeviceCVMResults: [UInt8] = [0x01, 0x00, 0x02]

    /// GENERATE AC (EMV Book 3, 6.5.5): P1 bits 8-7 the cryptogram asked for (11 → 6A86), bit 5 CDA, other bits and
    /// P2 zero. The first after GPO takes CDOL1 data, a second after an ARQC CDOL2 data (6700 when the length is
    /// not the list's). The card may answer less than asked: AAC when the TVR meets IAC-denial or a required
    /// CDCVM was not done, ARQC instead of TC when the TVR meets IAC-online or the amount is over its offline limit.
    mutating func generateAC(_ command: CommandAPDU) -> ResponseAPDU {
        guard command.p2 == 0x00, command.p1 & 0x2F == 0x00, command.p1 & 0xC0 != 0xC0 else {
            return Self.status(CardStatus.wrongParameters)
        }
        guard case .application = selection, !image.isMagStripeOnly else { return Self.status(CardStatus.wrongState) }
        let requested = FirstGenerateACCryptogramType(rawValue: command.p1 >> 6) ?? .aac
        let cdaRequested = command.p1 & 0x10 != 0
        switch transaction.phase {
        case .processing: return firstGenerateAC(requested, cdaRequested: cdaRequested, data: command.data)
        case .awaitingSecondGenerateAC: return secondGenerateAC(requested, cdaRequested: cdaRequested, data: command.data)
        default: return Self.status(CardStatus.wrongState)
        }
    }

    private mutating func firstGenerateAC(_ requested: FirstGenerateACCryptogramType, cdaRequested: Bool, data: [UInt8])
        -> ResponseAPDU
    {
        guard let cdol1 = image.cdol1 else { return Self.status(CardStatus.wrongState) }
        guard data.count == cdol1.relatedDataLength else { return Self.status(CardStatus.wrongLength) }
        guard takeKey(consume: false) != nil else { return Self.status(CardStatus.noPaymentKeys) }
        let terminal = TerminalData(list: cdol1, data: data)
        let amount = terminal.amountAuthorised
        let tvr = (try? TerminalVerificationResults(bytes: terminal.value(.terminalVerificationResults, length: 5))) ?? []
        let cdcvmSupported = image.consumerDeviceCVM.supported
        let cvmRequired =
            terminal[.cvmResults] == Self.consumerDeviceCVMResults
            || image.consumerDeviceCVM.cvmRequiredLimit.map { amount > $0 } ?? false
        let cdcvm = cdcvmSupported && isCardholderVerified
        var interaction = cdcvm ? CardholderInteraction.verified : CardholderInteraction.none
        let decision: FirstGenerateACCryptogramType
        if requested == .aac || !tvr.intersection(image.issuerActionCodeDenial).isEmpty {
            decision = .aac
        } else if cvmRequired, cdcvmSupported, !cdcvm {
            decision = .aac
            interaction = CardholderInteraction.verificationRequired
        } else if requested == .arqc || !tvr.intersection(image.issuerActionCodeOnline).isEmpty
            || amount > image.offlineLimit
        {
            decision = .arqc
        } else {
            decision = .tc
        }
        guard let key = takeKey(consume: true) else { return Self.status(CardStatus.noPaymentKeys) }
        if cdcvm, decision != .aac { consumeCardholderVerification() }
        transaction.key = key
        transaction.cdol1Data = data
        transaction.phase = decision == .arqc ? .awaitingSecondGenerateAC : .completed
        return cryptogramResponse(
            Verification(first: decision, terminalCountryCode: terminal.value(.terminalCountryCode, length: 2)),
            key: key, terminal: terminal, cda: cdaRequested && decision != .aac, interaction: interaction,
            cdol2Data: nil)
    }

    private mutating func secondGenerateAC(
        _ requested: FirstGenerateACCryptogramType, cdaRequested: Bool, data: [UInt8]
    ) -> ResponseAPDU {
        guard let cdol2 = image.cdol2, let key = transaction.key else { return Self.status(CardStatus.wrongState) }
        guard requested != .arqc else { return Self.status(CardStatus.wrongState) }
        guard data.count == cdol2.relatedDataLength else { return Self.status(CardStatus.wrongLength) }
        let second = TerminalData(list: cdol2, data: data)
        let first = TerminalData(list: image.cdol1, data: transaction.cdol1Data)
        // Authorisation response codes "00", "08", "10", "11" and "Y1"/"Y3" approve.
        let approvals: [[UInt8]] = ["00", "08", "10", "11", "Y1", "Y3"].map { Array($0.utf8) }
        let approved = second[.authorisationResponseCode].map(approvals.contains) ?? false
        let decision: SecondGenerateACCryptogramType = requested == .tc && approved ? .tc : .aac
        if approved { lastOnlineATC = key.atc }
        transaction.phase = .completed
        var verification = Verification(first: .arqc, second: decision)
        verification.terminalCountryCode = first.value(.terminalCountryCode, length: 2)
        // The second cryptogram is over the second GENERATE AC's data where CDOL2 asks for it.
        var terminal = first
        terminal.merge(second)
        return cryptogramResponse(
            verification, key: key, terminal: terminal, cda: cdaRequested && decision == .tc,
            interaction: CardholderInteraction.none, cdol2Data: data)
    }

    /// `77 { 9F27, 9F36, 9F26 | 9F4B, 9F10, DF4B }`; with CDA the AC travels inside the signature (EMV Book 2,
    /// 6.6.1), whose hash covers the PDOL, CDOL1 (and CDOL2) data and this response without 9F4B.
    private mutating func cryptogramResponse(
        _ verification: Verification, key: LimitedUseKey, terminal: TerminalData, cda: Bool, interaction: [UInt8],
        cdol2Data: [UInt8]?
    ) -> ResponseAPDU {
        var verification = verification
        let signer = cda ? image.iccPrivateKey : nil
        let dynamicNumber = key.atcBytes + environment.randomBytes(6)
        if signer != nil {
            if cdol2Data == nil { verification.cdaInFirst = true } else { verification.cdaInSecond = true }
            verification.dynamicNumberPrefix = UInt16(dynamicNumber[0]) << 8 | UInt16(dynamicNumber[1])
        }
        let type = cdol2Data == nil ? verification.first : Self.firstType(of: verification.second)
        let cid = Self.cryptogramInformationData(type)
        do {
            let iad = try issuerApplicationData(verification)
            let ac = try applicationCryptogram(key: key, terminal: terminal, issuerApplicationData: iad)
            var objects: [(Tag, [UInt8])] = [
                (.cryptogramInformationData, [cid]), (.applicationTransactionCounter, key.atcBytes),
            ]
            var tail: [(Tag, [UInt8])] = [(.issuerApplicationData, iad)]
            if image.scheme == .mastercard, image.consumerDeviceCVM.supported { tail.append((0xDF4B, interaction)) }
            if let signer {
                let hashed = try TLV.Serializer.serialize { serializer in
                    for (tag, value) in objects + tail { try serializer.append(tag: tag, value: value) }
                }
                let hash = CDADynamicData.transactionDataHashCode(
                    pdolData: transaction.pdolData, cdol1Data: transaction.cdol1Data, cdol2Data: cdol2Data,
                    responseData: hashed)
                let dynamic = try CDADynamicData(
                    iccDynamicNumber: dynamicNumber, cryptogramInformationData: cid, applicationCryptogram: ac,
                    transactionDataHashCode: hash)
                let signature = try signer.signDynamicApplicationData(
                    iccDynamicData: dynamic.bytes,
                    terminalDynamicData: terminal.value(.unpredictableNumber, length: 4))
                objects.append((.signedDynamicApplicationData, signature))
            } else {
                objects.append((.applicationCryptogram, ac))
            }
            return Self.encode { serializer in
                try serializer.appendConstructed(tag: .responseMessageTemplateFormat2) { template in
                    for (tag, value) in objects + tail { try template.append(tag: tag, value: value) }
                }
            }
        } catch {
            return Self.status(.noPreciseDiagnosis)
        }
    }

    private static func firstType(of second: SecondGenerateACCryptogramType) -> FirstGenerateACCryptogramType {
        second == .tc ? .tc : .aac
    }
}
