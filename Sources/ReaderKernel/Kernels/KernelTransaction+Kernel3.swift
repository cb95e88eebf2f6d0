import EMV

// Kernel 3 (EMV Contactless Book C-3, Visa qVSDC): TTQ, GET PROCESSING OPTIONS with the cryptogram in its response,
// records, fDDA, CTQ.
extension KernelTransaction {
    /// Builds the TTQ for this transaction and sends GET PROCESSING OPTIONS.
    mutating func startKernel3() -> KernelAction {
        var ttq = configuration.kernel3.terminalTransactionQualifiers
        let limits = indicators[Kernel.c3.id]
        if limits?.cvmRequiredLimitExceeded == true { ttq.insert(.cvmRequired) }
        if limits?.floorLimitExceeded == true || limits?.zeroAmount == true, !ttq.contains(.offlineOnlyReader) {
            ttq.insert(.onlineCryptogramRequired)
        }
        terminalTransactionQualifiers = ttq
        events.append(.terminalTransactionQualifiers(ttq))
        return sendProcessingOptions(kernel: .c3)
    }

    /// Book C-3 5.4-5.8: ODA, CVM and the outcome once the records are read.
    mutating func completeKernel3() -> KernelAction {
        if card[.cryptogramInformationData] == nil,
            let cid = Self.cryptogramInformation(visaIAD: card[.issuerApplicationData])
        {
            card[.cryptogramInformationData] = [cid]
        }
        for tag in [
            Tag.cryptogramInformationData, .applicationCryptogram, .applicationTransactionCounter,
            .issuerApplicationData,
        ]
        where card[tag] == nil {
            return finish(.endApplication, .missingCardData(tag))
        }
        guard applicationPAN != nil else { return finish(.endApplication, .missingCardData(.applicationPAN)) }
        let cid = card[.cryptogramInformationData]?.first ?? 0xFF
        let atc = card[.applicationTransactionCounter] ?? []
        events.append(.cryptogramReceived(type: Self.cryptogramName(cid), atc: atc))
        let ctq = card[.cardTransactionQualifiers].flatMap { try? CardTransactionQualifiers(bytes: $0) }
        if let ctq { events.append(.cardTransactionQualifiers(ctq)) }

        var status: Outcome.Status
        var reason: OutcomeReason
        switch cid & 0xC0 {
        case 0x80: (status, reason) = (.onlineRequest, .onlineAuthorizationRequested)
        case 0x40: (status, reason) = (.approved, .approvedOffline)
        case 0x00: (status, reason) = (.declined, .declinedByCard)
        default: return finish(.endApplication, .invalidCardData("cryptogram information data"))
        }

        let oda = authenticateKernel3(offline: status == .approved)
        events.append(.offlineDataAuthentication(oda))
        if oda.failed, status != .declined {
            // Book C-3 5.6: the card's CTQ says what an ODA failure means.
            if ctq?.contains(.goOnlineIfODAFails) == true, !terminalTransactionQualifiers.contains(.offlineOnlyReader) {
                status = .onlineRequest
            } else if ctq?.contains(.switchInterfaceIfODAFails) == true,
                terminalTransactionQualifiers.contains(.emvContactChipSupported)
            {
                return finish(.tryAnotherInterface, .offlineDataAuthenticationFailed)
            } else {
                (status, reason) = (.declined, .offlineDataAuthenticationFailed)
            }
        }
        if status == .approved,
            let expiry = card[.applicationExpirationDate].flatMap({ try? ExpiryDate(tlvValue: $0[...]) }),
            let date = transactionDate, expiry.isExpired(on: date)
        {
            status = ctq?.contains(.goOnlineIfApplicationExpired) == true ? .onlineRequest : .declined
        }

        if status != .declined {
            guard let cvm = kernel3CardholderVerification(ctq: ctq, online: status == .onlineRequest) else {
                events.append(.cardholderVerification(.notApplicable, results: nil))
                return finish(
                    .declined, .cardholderVerificationFailed,
                    authorizationData: emvAuthorizationData(extraTags: [0x9F66]))
            }
            cardholderVerification = cvm
            events.append(.cardholderVerification(cvm, results: nil))
        }
        let userInterface: UserInterfaceRequest? =
            switch (status, cardholderVerification) {
            case (.onlineRequest, .onlinePIN): UserInterfaceRequest(message: .enterPIN, status: .cardReadSuccessfully)
            case (.approved, .signature):
                UserInterfaceRequest(message: .approvedPleaseSign, status: .cardReadSuccessfully)
            default: nil
            }
        return finish(
            status, reason, userInterface: userInterface,
            authorizationData: emvAuthorizationData(extraTags: [0x9F66]))
    }

    /// fDDA (Book C-3 5.5): performed when the card signed (9F4B); an offline approval without a signature fails.
    func authenticateKernel3(offline: Bool) -> OfflineDataAuthentication {
        guard let signature = card.oda.signedDynamicApplicationData else {
            return offline
                ? .failed(.fDDA, reason: "no signed dynamic application data for an offline approval")
                : .notPerformed("online authorisation without an fDDA signature")
        }
        do {
            let iccKey = try recoverICCPublicKey()
            let signed: SignedDynamicApplicationData
            do {
                signed = try SignedDynamicApplicationData(
                    recovering: signature, with: iccKey, format: SignedDynamicApplicationData.fDDAFormat)
            } catch ODAError.badFormat {
                // Some cards sign fDDA with the DDA format '05' rather than Visa's '95'.
                signed = try SignedDynamicApplicationData(recovering: signature, with: iccKey)
            }
            let terminalData = try SignedDynamicApplicationData.fDDATerminalDynamicData(
                unpredictableNumber: environment.unpredictableNumber, amountAuthorised: amountAuthorised ?? [],
                transactionCurrencyCode: request.currency.emvCode,
                cardAuthenticationRelatedData: card[.cardAuthenticationRelatedData])
            try signed.verify(terminalDynamicData: terminalData)
            return .succeeded(.fDDA)
        } catch {
            return .failed(.fDDA, reason: Self.failureName(error))
        }
    }

    /// Book C-3 5.7: the CVM from the CTQ and the reader's TTQ; nil when a CVM is required but none is possible.
    func kernel3CardholderVerification(ctq: CardTransactionQualifiers?, online: Bool) -> CardholderVerification? {
        let ttq = terminalTransactionQualifiers
        if let ctq {
            if ctq.contains(.onlinePINRequired), ttq.contains(.onlinePINSupported), online { return .onlinePIN }
            if ctq.contains(.consumerDeviceCVMPerformed) { return .consumerDevice }
            if ctq.contains(.signatureRequired), ttq.contains(.signatureSupported) { return .signature }
            return ttq.contains(.cvmRequired) ? nil : .noCVM
        }
        guard ttq.contains(.cvmRequired) else { return .noCVM }
        if ttq.contains(.signatureSupported) { return .signature }
        if ttq.contains(.onlinePINSupported), online { return .onlinePIN }
        return nil
    }

    /// Book C-3: a card that omits the CID (9F27) gives the cryptogram type in its CVR, byte 2 bits 6-5 (IAD formats
    /// 0, 1 and 3: length, DKI, CVN, then the CVR, whose byte 1 is its length 03).
    static func cryptogramInformation(visaIAD iad: [UInt8]?) -> UInt8? {
        guard let iad, iad.count >= 7, iad[3] == 0x03 else { return nil }
        switch iad[4] & 0x30 {
        case 0x20: return 0x80
        case 0x10: return 0x40
        case 0x00: return 0x00
        default: return nil
        }
    }

    /// `ARQC`, `TC`, `AAC` from the CID's bits 8-7.
    static func cryptogramName(_ cid: UInt8) -> String {
        switch cid & 0xC0 {
        case 0x80: "ARQC"
        case 0x40: "TC"
        case 0x00: "AAC"
        default: "RFU cryptogram type"
        }
    }
}
