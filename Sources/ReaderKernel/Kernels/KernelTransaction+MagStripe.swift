import EMV

// Kernel 2 mag-stripe mode (EMV Contactless Book C-2, 5.x): for cards without EMV mode. The card computes a CVC3
// over the reader's numeric unpredictable number and its ATC (COMPUTE CRYPTOGRAPHIC CHECKSUM); the reader writes
// CVC3, unpredictable number and ATC into the discretionary data of the card's track 2 template.
extension KernelTransaction {
    /// The Unpredictable Number (Numeric) 9F6A: eight BCD digits of which only the last nUN vary; nUN is only known
    /// once the records are read, so the leading digits are zeroed then (see ``sendChecksum()``).
    func magStripeNumericUnpredictableNumber() -> [UInt8] {
        let raw = environment.unpredictableNumber.reduce(0) { $0 << 8 | Int($1) }
        return NumericBCD.encode(raw % 100_000_000, byteCount: 4)
    }

    /// The number of unpredictable number digits the track carries: set bits of PUNATC(Track2) minus NATC(Track2).
    var magStripeUnpredictableDigitCount: Int? {
        guard let punatc = card[.punatcTrack2], let natc = card[0x9F67]?.first else { return nil }
        let count = punatc.reduce(0) { $0 + $1.nonzeroBitCount } - Int(natc)
        return (0...8).contains(count) ? count : nil
    }

    /// Builds the UDOL data and sends COMPUTE CRYPTOGRAPHIC CHECKSUM.
    mutating func sendChecksum() -> KernelAction {
        for tag in [Tag.track2Data, 0x9F65, .punatcTrack2, 0x9F67] where card[tag] == nil {
            return finish(.endApplication, .missingCardData(tag))
        }
        guard let digits = magStripeUnpredictableDigitCount else {
            return finish(.endApplication, .invalidCardData("PUNATC(Track2) and NATC(Track2) disagree"))
        }
        let raw = environment.unpredictableNumber.reduce(0) { $0 << 8 | Int($1) }
        var modulus = 1
        for _ in 0..<digits { modulus *= 10 }
        magStripeUnpredictableNumber = NumericBCD.encode(raw % modulus, byteCount: 4)
        let cvmRequired = indicators[Kernel.c2.id]?.cvmRequiredLimitExceeded == true
        let aip = card[.applicationInterchangeProfile].flatMap { try? ApplicationInterchangeProfile(bytes: $0) } ?? []
        cardholderVerification = magStripeCardholderVerification(aip: aip, cvmRequired: cvmRequired)
        events.append(.cardholderVerification(cardholderVerification, results: nil))
        // Default UDOL: the numeric unpredictable number alone (Book C-2, annex A).
        let udol = (try? DataObjectList(card[.udol] ?? [0x9F, 0x6A, 0x04], rules: .lenient))
        guard let udol,
            let command = try? CommandAPDU.computeCryptographicChecksum(
                udolData: udol.relatedData(kernel: .c2) { dataObjectValue($0) })
        else {
            return finish(.endApplication, .invalidCardData("the UDOL cannot be parsed"))
        }
        step = .computingChecksum
        return send(command)
    }

    /// Mag-stripe CVM: on the phone when both support it, else the mag-stripe CVM capability for the amount.
    private func magStripeCardholderVerification(
        aip: ApplicationInterchangeProfile, cvmRequired: Bool
    ) -> CardholderVerification {
        let settings = configuration.kernel2
        if aip.contains(.onDeviceCardholderVerificationSupported), settings.supportsOnDeviceCardholderVerification {
            return cvmRequired ? .consumerDevice : .noCVM
        }
        let capability =
            cvmRequired ? settings.magStripeCVMCapabilityCVMRequired : settings.magStripeCVMCapabilityNoCVMRequired
        switch capability >> 4 {
        case 1: return .onlinePIN
        case 2: return .signature
        default: return .noCVM
        }
    }

    /// The COMPUTE CRYPTOGRAPHIC CHECKSUM response: CVC3 and ATC into the track, then an online request.
    mutating func receiveCryptographicChecksum(_ response: ResponseAPDU) -> KernelAction {
        guard response.statusWord == .success else {
            if response.statusWord == .commandNotAllowedNoCurrentEF {
                return seePhone()
            }
            return finish(.endApplication, .cardStatus(command: "COMPUTE CRYPTOGRAPHIC CHECKSUM", response.statusWord))
        }
        guard let template = try? TLV.parseOne(response.data, rules: .lenient),
            template.tag == .responseMessageTemplateFormat2
        else {
            return finish(.endApplication, .invalidCardData("the checksum response is not a '77' template"))
        }
        card.replace(with: template.children)
        guard let cvc3 = card[0x9F61], cvc3.count == 2, let atc = card[.applicationTransactionCounter], atc.count == 2
        else {
            return finish(.endApplication, .missingCardData(0x9F61))
        }
        events.append(.cryptogramReceived(type: "CVC3", atc: atc))
        // On device verification counts only when the card says it succeeded (DF4B byte 2 bit 5); otherwise the
        // cardholder has to unlock the phone and tap again.
        if cardholderVerification == .consumerDevice,
            Self.needsPhoneInteraction(card[0xDF4B]) || card[0xDF4B].map({ $0.count >= 2 && $0[1] & 0x10 != 0 }) != true
        {
            return seePhone()
        }
        events.append(.offlineDataAuthentication(.notPerformed("mag-stripe mode has no offline data authentication")))
        guard let track = dynamicTrack2(cvc3: cvc3, atc: atc), let pan = applicationPAN ?? Optional(track.pan) else {
            return finish(.endApplication, .invalidCardData("the track 2 template does not fit CVC3 and ATC"))
        }
        let data = CardAuthorizationData(
            mode: .magStripe, iccData: [], pan: pan, panSequenceNumber: card[.panSequenceNumber]?.first,
            expiry: track.expiry, track2: track)
        return finish(.onlineRequest, .magStripeOnlineAuthorizationRequested, authorizationData: data)
    }

    /// Book C-2 (mag-stripe, track 2): writes the CVC3's q last digits where PCVC3(Track2) has bits, the unpredictable
    /// number's nUN last digits and then the ATC's NATC last digits where PUNATC(Track2) has bits (counting from the
    /// rightmost discretionary digit), and nUN into the last digit.
    func dynamicTrack2(cvc3: [UInt8], atc: [UInt8]) -> Track2EquivalentData? {
        guard let template = card[.track2Data].flatMap({ try? Track2EquivalentData(bytes: $0, requireLuhn: false) }),
            let pcvc3 = card[0x9F65], let punatc = card[.punatcTrack2], let natc = card[0x9F67]?.first.map(Int.init),
            let unDigits = magStripeUnpredictableDigitCount
        else { return nil }
        var digits = Array(template.discretionaryData.utf8).map { $0 - UInt8(ascii: "0") }
        let cvc3Value = Int(cvc3[0]) << 8 | Int(cvc3[1])
        let atcValue = Int(atc[0]) << 8 | Int(atc[1])
        let unValue = magStripeUnpredictableNumber.reduce(0) { $0 * 100 + Int($1 >> 4) * 10 + Int($1 & 0x0F) }
        func positions(_ bitmap: [UInt8]) -> [Int] {
            // Bit 1 of the last byte is the rightmost discretionary digit.
            let bits = bitmap.reduce(0) { $0 << 8 | Int($1) }
            return (0..<(bitmap.count * 8)).filter { bits >> $0 & 1 == 1 }
        }
        func write(_ value: Int, into slots: ArraySlice<Int>) -> Bool {
            var remaining = value
            for slot in slots {
                guard slot < digits.count else { return false }
                digits[digits.count - 1 - slot] = UInt8(remaining % 10)
                remaining /= 10
            }
            return true
        }
        let cvc3Slots = positions(pcvc3)
        let unatcSlots = positions(punatc)
        guard unatcSlots.count == unDigits + natc, !digits.isEmpty,
            write(cvc3Value, into: cvc3Slots[...]),
            write(unValue, into: unatcSlots.prefix(unDigits)),
            write(atcValue, into: unatcSlots.dropFirst(unDigits))
        else { return nil }
        digits[digits.count - 1] = UInt8(unDigits)
        let text = String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        return try? Track2EquivalentData(
            pan: template.pan, expiry: template.expiry, serviceCode: template.serviceCode, discretionaryData: text)
    }
}
