import EMV

extension EmulatedCard {
    /// COMPUTE CRYPTOGRAPHIC CHECKSUM (EMV Contactless Book C-2, mag-stripe mode): `80 2A 8E 80` with the UDOL data
    /// (the reader's numeric unpredictable number, 9F6A). Answers `77 { 9F61, 9F60, 9F36 [, DF4B] }`: the CVC3 for
    /// track 2 and track 1 and the ATC, which the reader writes into the track templates.
    ///
    /// Only a card without EMV mode in its AIP runs it, after GET PROCESSING OPTIONS (6985 otherwise). Each
    /// checksum uses up one ATC (and its limited-use slot).
    mutating func computeCryptographicChecksum(_ command: CommandAPDU) -> ResponseAPDU {
        guard command.p1 == 0x8E, command.p2 == 0x80 else { return Self.status(CardStatus.wrongParameters) }
        guard case .application = selection, transaction.phase == .processing, image.isMagStripeOnly,
            let magStripe = image.magStripe
        else {
            return Self.status(CardStatus.wrongState)
        }
        guard command.data.count == magStripe.udol.relatedDataLength else {
            return Self.status(CardStatus.wrongLength)
        }
        let terminal = TerminalData(list: magStripe.udol, data: command.data)
        let unpredictableNumber = terminal.value(0x9F6A, length: 4)
        guard let key = takeKey(consume: true) else { return Self.status(CardStatus.noPaymentKeys) }
        transaction.key = key
        transaction.phase = .completed
        let cdcvm = image.consumerDeviceCVM.supported && isCardholderVerified
        if cdcvm { consumeCardholderVerification() }
        do {
            let track2 = try CVC3.generate(
                iccKey: magStripe.iccKey, initializationVector: magStripe.ivTrack2, atc: key.atcBytes,
                unpredictableNumber: unpredictableNumber)
            let track1 = try CVC3.generate(
                iccKey: magStripe.iccKey, initializationVector: magStripe.ivTrack1, atc: key.atcBytes,
                unpredictableNumber: unpredictableNumber)
            return Self.encode { serializer in
                try serializer.appendConstructed(tag: .responseMessageTemplateFormat2) { template in
                    try template.append(tag: 0x9F61, value: [UInt8(track2 >> 8), UInt8(truncatingIfNeeded: track2)])
                    try template.append(tag: 0x9F60, value: [UInt8(track1 >> 8), UInt8(truncatingIfNeeded: track1)])
                    try template.append(tag: .applicationTransactionCounter, value: key.atcBytes)
                    if image.consumerDeviceCVM.supported {
                        try template.append(
                            tag: 0xDF4B, value: cdcvm ? CardholderInteraction.verified : CardholderInteraction.none)
                    }
                }
            }
        } catch {
            return Self.status(.noPreciseDiagnosis)
        }
    }
}
