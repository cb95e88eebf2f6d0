import EMV
import Foundation
import Testing

/// The typed values read from and written as BER-TLV (`TLVCodable`, `Amount+TLV`), on the real card responses of
/// tlv-real-cards.json: what each card says in one data object is checked against what it says elsewhere (track 2
/// against 5A and 5F24) or against the specification's bit meanings, and every value re-serializes to the card's
/// own bytes.
@Suite struct TLVCodableTests {
    /// All objects of a card's responses, in order.
    static func objects(_ card: RealCardVectors.Card) throws -> [TLVNode] {
        try card.responses.flatMap { try TLV.parse($0.bytes).allDescendants }
    }

    static func object(_ tag: Tag, in card: RealCardVectors.Card) throws -> TLVNode {
        try #require(try objects(card).first { $0.tag == tag }, "no \(tag) in \(card.card)")
    }

    /// Decodes `tag` as `Value`, checks the value, and checks that serializing it gives the card's bytes back.
    func roundTrip<Value: TLVCodable & Equatable>(
        _ type: Value.Type, _ tag: Tag, in card: RealCardVectors.Card, expected: Value,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let node = try Self.object(tag, in: card)
        let value = try Value(tlv: node, tag: tag)
        #expect(value == expected, sourceLocation: sourceLocation)
        var serializer = TLV.Serializer()
        try value.serialize(into: &serializer, tag: tag)
        #expect(serializer.bytes == Array(node.encoded), sourceLocation: sourceLocation)
    }

    @Test func applicationInterchangeProfiles() throws {
        let cards = try RealCardVectors.load()
        // Visa 20 00: DDA supported. Mastercard 19 80: cardholder verification, terminal risk management, CDA, EMV mode.
        try roundTrip(ApplicationInterchangeProfile.self, 0x82, in: cards.visa, expected: .ddaSupported)
        try roundTrip(
            ApplicationInterchangeProfile.self, 0x82, in: cards.mastercard,
            expected: [
                .cardholderVerificationSupported, .terminalRiskManagementRequired, .cdaSupported, .emvModeSupported,
            ])
        let gpo = try TLV.parseOne(cards.mastercard.response("GET PROCESSING OPTIONS").bytes)
        #expect(try gpo.first(ApplicationInterchangeProfile.self)?.contains(.cdaSupported) == true)
        #expect(try gpo.first(TerminalVerificationResults.self) == nil)
    }

    @Test func cardTransactionQualifiers() throws {
        // Visa's GPO response, Kernel 3: 16 00 is "switch interface if ODA fails", "for cash" and "for cashback".
        try roundTrip(
            CardTransactionQualifiers.self, 0x9F6C, in: try RealCardVectors.load().visa,
            expected: [.switchInterfaceIfODAFails, .switchInterfaceForCash, .switchInterfaceForCashback])
    }

    @Test(arguments: [0, 1])
    func panTrack2AndExpiryAgree(_ position: Int) throws {
        let card = try RealCardVectors.load().cards[position]
        let pan = try PAN(tlv: Self.object(.applicationPAN, in: card))
        #expect(pan.digits == card.pan)
        try roundTrip(PAN.self, 0x5A, in: card, expected: pan)
        let track2 = try Track2EquivalentData(tlv: Self.object(.track2EquivalentData, in: card))
        #expect(track2.pan == pan)
        try roundTrip(Track2EquivalentData.self, 0x57, in: card, expected: track2)
        // 5F24 is a whole date (the month's last day on both cards); its month is track 2's expiry.
        try roundTrip(ExpiryDate.self, 0x5F24, in: card, expected: track2.expiry)
        let expiration = try EMVDate(tlv: Self.object(.applicationExpirationDate, in: card), tag: 0x5F24)
        #expect(expiration == track2.expiry.lastDay)
    }

    @Test func mastercardRecordValues() throws {
        let card = try RealCardVectors.load().mastercard
        try roundTrip(Currency.self, 0x9F42, in: card, expected: .eur)
        // Its issuer country (5F28) is 280, West Germany's code until 1990, which ISO 3166-1 has withdrawn.
        #expect(throws: ValueError.unknownCountry) {
            try Country(tlv: Self.object(.issuerCountryCode, in: card), tag: .issuerCountryCode)
        }
        try roundTrip(EMVDate.self, 0x5F25, in: card, expected: try EMVDate(year: 2022, month: 3, day: 1))
        // 8E: X = Y = 0, then enciphered PIN online (next if unsuccessful), signature, no CVM; all "if terminal
        // supports the CVM".
        let list = try CVMList(tlv: Self.object(.cvmList, in: card))
        #expect(list.amountX == 0 && list.amountY == 0)
        #expect(list.rules.map(\.method) == [.encipheredPINOnline, .signature, .noCVMRequired])
        #expect(list.rules.map(\.applyNextIfUnsuccessful) == [true, false, false])
        #expect(list.rules.allSatisfy { $0.condition == .terminalSupportsCVM })
        try roundTrip(CVMList.self, 0x8E, in: card, expected: list)
        try roundTrip(Country.self, 0x5F28, in: RealCardVectors.load().visa, expected: .gbr)
    }

    /// The Visa terminal's PDOL data (sent in GET PROCESSING OPTIONS) as data objects: TTQ, amounts, country,
    /// TVR, currency, date, transaction type, unpredictable number.
    @Test func terminalValuesFromRealPDOLData() throws {
        let card = try RealCardVectors.load().visa
        let pdol = try DataObjectList(Self.object(.pdol, in: card).value)
        var data = try [UInt8](card.response("GET PROCESSING OPTIONS").command).dropFirst(7).dropLast()
        var serializer = TLV.Serializer()
        for entry in pdol {
            try serializer.append(tag: entry.tag, value: data.prefix(entry.length))
            data = data.dropFirst(entry.length)
        }
        #expect(data.isEmpty)
        let objects = try TLV.parse(serializer.bytes)

        #expect(
            try objects.first(TerminalTransactionQualifiers.self)
                == [.emvModeSupported, .onlinePINSupported, .signatureSupported, .odaForOnlineAuthorizationsSupported])
        let currency = try #require(try objects.first(Currency.self))
        #expect(currency == .eur)
        let amount = try Amount(tlv: #require(objects.first(.amountAuthorised)), currency: currency)
        #expect(amount.formatted == "10.00 EUR")
        let other = try Amount(tlv: #require(objects.first(.amountOther)), currency: currency, tag: .amountOther)
        #expect(other.minorUnits == 0)
        #expect(try objects.first(TerminalVerificationResults.self)?.isEmpty == true)
        #expect(try objects.first(EMVDate.self) == (try EMVDate(year: 2023, month: 3, day: 1)))
        // This terminal sent its currency code, 978, as its country code (9F1A): no country has that code.
        let country = try #require(objects.first(.terminalCountryCode))
        let error = try #require(throws: ValueError.unknownCountry) { try Country(tlv: country) }
        #expect(error.offset == nil)

        var written = TLV.Serializer()
        try amount.serialize(into: &written)
        try other.serialize(into: &written, tag: .amountOther)
        #expect(
            written.bytes == Array(objects.first(.amountAuthorised)!.encoded + objects.first(.amountOther)!.encoded))
    }

    /// TSI and CVM results, which no card response carries: spec examples written out by hand.
    @Test func terminalOnlyValues() throws {
        let objects = try TLV.parse(try [UInt8]("9B02E8009F34031F0302"))
        // EMV Book 3 annex C6: ODA, cardholder verification, card and terminal risk management performed.
        #expect(
            try objects.first(TransactionStatusInformation.self)
                == [
                    .offlineDataAuthenticationPerformed, .cardholderVerificationPerformed,
                    .cardRiskManagementPerformed, .terminalRiskManagementPerformed,
                ])
        let results = try #require(try objects.first(CVMResults.self))
        #expect(results.method == .noCVMRequired && results.condition == .terminalSupportsCVM)
        #expect(results.result == .successful)
        var serializer = TLV.Serializer()
        try TransactionStatusInformation(tlv: #require(objects.first(.transactionStatusInformation))).serialize(
            into: &serializer)
        try results.serialize(into: &serializer)
        #expect(serializer.bytes == (try [UInt8]("9B02E8009F34031F0302")))
    }

    @Test func wrongTagsAndMalformedValuesNameTheirOffsetInTheInput() throws {
        // A 70 template: AIP at offset 2, then a one-byte CVM results (9F34) at offset 6 with its value at 9.
        let record = try TLV.parseOne(try [UInt8]("7008820220009F340101"))
        let aip = try #require(record.first(.applicationInterchangeProfile))
        let wrongTag = try #require(throws: TLVError.unexpectedTag) { try TerminalVerificationResults(tlv: aip) }
        #expect(wrongTag.offset == 2)
        #expect(throws: TLVError.unexpectedTag) { try Currency(tlv: aip, tag: .applicationCurrencyCode) }
        let results = try #require(record.first(.cvmResults))
        let length = try #require(throws: ValueError.invalidLength) { try CVMResults(tlv: results) }
        #expect(length.offset == 9)
        let badDigit = try #require(throws: ValueError.invalidDigit) {
            try EMVDate(tlv: TLV.parseOne(try [UInt8]("9A032312A1")))
        }
        #expect(badDigit.offset == 2 + 2)
        // A value n12 cannot hold is not written.
        var serializer = TLV.Serializer()
        #expect(throws: ValueError.amountOutOfRange) {
            try Amount(minorUnits: -1, currency: .eur).serialize(into: &serializer)
        }
        #expect(serializer.bytes.isEmpty)
    }

    @Test func getDataTakesATag() throws {
        #expect(try CommandAPDU.getData(tag: .applicationTransactionCounter).bytes == [0x80, 0xCA, 0x9F, 0x36, 0x00])
        #expect(try CommandAPDU.getData(tag: Tag(rawValue: 0x42)) == CommandAPDU.getData(tag: 0x0042))
        #expect(throws: APDUError.invalidParameter) { try CommandAPDU.getData(tag: .errorIndication) }
        // The emv 1.0.14 package's GET DATA commands (apdu-builders.json), through the Tag form.
        let vectors = APDUBuilderTests.vectors.filter { $0.builder == "getData" }
        #expect(!vectors.isEmpty)
        for vector in vectors {
            let tag = Tag(rawValue: try #require(UInt32(vector.args.tag ?? "", radix: 16)))
            #expect(try CommandAPDU.getData(tag: tag).bytes.hexString == vector.bytes)
        }
    }
}
