import EMV

extension EmulatedCard {
    /// Visa qVSDC (EMV Contactless Book C-3): the card decides and returns its cryptogram in the GPO response,
    /// with track 2, the IAD (CVN 18), the CTQ, the form factor and, when the reader asks for ODA or the card
    /// approves offline, an fDDA signature (9F4B, format '95', ICC dynamic number = ATC).
    ///
    /// A CVM is required when the TTQ says so (byte 2 bit 7) or the amount exceeds the card's CDCVM limit; without
    /// the wallet's cardholder verification that is 6986 (see phone), and no key or ATC is used.
    mutating func quickVSDC(_ terminal: TerminalData) -> ResponseAPDU {
        guard let ttqBytes = terminal[.terminalTransactionQualifiers],
            let ttq = try? TerminalTransactionQualifiers(bytes: ttqBytes), ttq.contains(.emvModeSupported)
        else {
            // A reader that does not offer qVSDC: this card has no MSD.
            return Self.status(CardStatus.wrongState)
        }
        guard takeKey(consume: false) != nil else { return Self.status(CardStatus.noPaymentKeys) }
        let amount = terminal.amountAuthorised
        var ctq = image.cardTransactionQualifiers
        let cvmRequired =
            ttq.contains(.cvmRequired) || image.consumerDeviceCVM.cvmRequiredLimit.map { amount > $0 } ?? false
        let cdcvm = image.consumerDeviceCVM.supported && isCardholderVerified
        var declined = false
        if cdcvm {
            ctq.insert(.consumerDeviceCVMPerformed)
        } else if cvmRequired {
            if image.consumerDeviceCVM.supported { return Self.status(CardStatus.seePhone) }
            if ttq.contains(.onlinePINSupported) {
                ctq.insert(.onlinePINRequired)
            } else if ttq.contains(.signatureSupported) {
                ctq.insert(.signatureRequired)
            } else {
                declined = true
            }
        }
        let cryptogram: FirstGenerateACCryptogramType
        if declined {
            cryptogram = .aac
        } else if ttq.contains(.offlineOnlyReader) {
            cryptogram = amount <= image.offlineLimit ? .tc : .aac
        } else if ttq.contains(.onlineCryptogramRequired) || amount > image.offlineLimit {
            cryptogram = .arqc
        } else {
            cryptogram = .tc
        }
        let fastDDA =
            image.iccPrivateKey != nil
            && (cryptogram == .tc || (cryptogram == .arqc && ttq.contains(.odaForOnlineAuthorizationsSupported)))
        guard let key = takeKey(consume: true) else { return Self.status(CardStatus.noPaymentKeys) }
        if cdcvm { consumeCardholderVerification() }
        transaction.key = key
        transaction.phase = .completed
        do {
            let iad = try issuerApplicationData(Verification(first: cryptogram, fastDDAPerformed: fastDDA))
            let ac = try applicationCryptogram(key: key, terminal: terminal, issuerApplicationData: iad)
            var signature: [UInt8]?
            if fastDDA, let iccKey = image.iccPrivateKey {
                let input = try SignedDynamicApplicationData.fDDATerminalDynamicData(
                    unpredictableNumber: terminal.value(.unpredictableNumber, length: 4),
                    amountAuthorised: terminal.value(.amountAuthorised, length: 6),
                    transactionCurrencyCode: terminal.value(.transactionCurrencyCode, length: 2),
                    cardAuthenticationRelatedData: image.cardAuthenticationRelatedData)
                signature = try iccKey.signFastDynamicApplicationData(
                    iccDynamicNumber: key.atcBytes, terminalDynamicData: input)
            }
            return Self.encode { serializer in
                try serializer.appendConstructed(tag: .responseMessageTemplateFormat2) { template in
                    try template.append(
                        tag: .applicationInterchangeProfile, value: image.applicationInterchangeProfile.bytes)
                    try template.append(tag: .applicationFileLocator, value: image.applicationFileLocator)
                    try template.append(tag: .track2EquivalentData, value: image.track2EquivalentData)
                    try template.append(tag: .panSequenceNumber, value: image.panSequenceNumber)
                    try template.append(tag: .issuerApplicationData, value: iad)
                    try template.append(tag: .applicationCryptogram, value: ac)
                    try template.append(
                        tag: .cryptogramInformationData, value: [Self.cryptogramInformationData(cryptogram)])
                    try template.append(tag: .applicationTransactionCounter, value: key.atcBytes)
                    if let signature { try template.append(tag: .signedDynamicApplicationData, value: signature) }
                    try template.append(tag: .cardTransactionQualifiers, value: ctq.bytes)
                    if let formFactor = image.formFactorIndicator {
                        try template.append(tag: .formFactorIndicator, value: formFactor)
                    }
                }
            }
        } catch {
            return Self.status(.noPreciseDiagnosis)
        }
    }
}
