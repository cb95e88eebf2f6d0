import EMV

extension EmulatedCard {
    /// GET PROCESSING OPTIONS (EMV Book 3, 6.5.8): the PDOL data in a `83` template, exactly as long as the PDOL
    /// asks (6700 otherwise). An empty `83 00` on a card with a PDOL is the contact-tool case: accepted only when
    /// the profile allows it, and then the card runs as a contact EMV card (AIP and AFL, cryptogram by GENERATE AC).
    ///
    /// Visa in contactless mode answers qVSDC: the cryptogram comes with the GPO response. A contact terminal has no
    /// Terminal Transaction Qualifiers and fills their place in the PDOL data with zeros (Book 3, 5.4): a real Visa
    /// dual-interface card then runs its contact application, and so does this one (AIP with DDA, AFL, the cryptogram
    /// by GENERATE AC with CDOL1). Mastercard answers format 2 with the AIP and AFL.
    mutating func getProcessingOptions(_ command: CommandAPDU) -> ResponseAPDU {
        guard command.p1 == 0x00, command.p2 == 0x00 else { return Self.status(CardStatus.wrongParameters) }
        guard case .application = selection, transaction.phase == .selected else {
            return Self.status(CardStatus.wrongState)
        }
        guard let template = try? TLV.parseOne(command.data, rules: .lenient), template.tag == .commandTemplate else {
            return Self.status(CardStatus.incorrectData)
        }
        let pdolData = Array(template.value)
        var contactMode = false
        if pdolData.count != image.pdol?.relatedDataLength ?? 0 {
            guard pdolData.isEmpty, image.acceptsEmptyPDOLData else { return Self.status(CardStatus.wrongLength) }
            contactMode = true
        }
        transaction.pdolData = pdolData
        if image.scheme == .visa, !contactMode {
            let terminal = TerminalData(list: image.pdol, data: pdolData)
            let ttq = terminal[.terminalTransactionQualifiers] ?? []
            if ttq.contains(where: { $0 != 0 }) { return quickVSDC(terminal) }
        }
        transaction.phase = .processing
        return Self.encode { serializer in
            try serializer.appendConstructed(tag: .responseMessageTemplateFormat2) { template in
                try template.append(
                    tag: .applicationInterchangeProfile, value: image.applicationInterchangeProfile.bytes)
                try template.append(tag: .applicationFileLocator, value: image.applicationFileLocator)
            }
        }
    }
}
