import EMV

extension EmulatedCard {
    /// INTERNAL AUTHENTICATE (EMV Book 3, 6.5.9; Book 2, 6.5): dynamic data authentication. The card signs its ICC
    /// Dynamic Data (a fresh 8-byte ICC Dynamic Number) with the terminal's DDOL data under its ICC private key, as
    /// Signed Dynamic Application Data in format '05', and answers it in a format 2 template (77, 9F4B).
    ///
    /// Only a card whose AIP claims DDA and that holds an ICC key answers; others say `6985`. The card does not check
    /// the DDOL data against its DDOL (tag 9F49): the terminal builds it, from the card's DDOL or its default one
    /// (the Unpredictable Number), and the signature covers whatever it sent.
    mutating func internalAuthenticate(_ command: CommandAPDU) -> ResponseAPDU {
        guard command.p1 == 0x00, command.p2 == 0x00 else { return Self.status(CardStatus.wrongParameters) }
        guard case .application = selection else { return Self.status(CardStatus.wrongState) }
        guard image.applicationInterchangeProfile.contains(.ddaSupported), let iccKey = image.iccPrivateKey else {
            return Self.status(CardStatus.wrongState)
        }
        guard !command.data.isEmpty else { return Self.status(CardStatus.wrongLength) }
        do {
            let signature = try iccKey.signDynamicApplicationData(
                iccDynamicData: SignedDynamicApplicationData.iccDynamicData(dynamicNumber: environment.randomBytes(8)),
                terminalDynamicData: command.data)
            return Self.encode { serializer in
                try serializer.appendConstructed(tag: .responseMessageTemplateFormat2) { template in
                    try template.append(tag: .signedDynamicApplicationData, value: signature)
                }
            }
        } catch {
            return Self.status(.noPreciseDiagnosis)
        }
    }
}
