import EMV
import Testing

/// The typed issuer application data and CVRs: real cards' IADs, pyemv's HSM-checked transactions, and build ↔
/// parse round trips for every cryptogram version.
@Suite struct IssuerApplicationDataTests {
    // MARK: Real cards and pyemv's HSM vectors decoded to named bits

    /// The real Visa card of tlv-real-cards.json answers GENERATE AC with 9F10 `06040A03A02000` (CVN 10).
    @Test func realVisaCVN10() throws {
        let iad = try VisaIssuerApplicationData(bytes: hexBytes("06040A03A02000"))
        #expect(iad.derivationKeyIndex == 0x04)
        #expect(iad.cryptogramVersionNumber == CryptogramVersion.visa10.number)
        #expect(iad.format == 0)
        #expect(iad.issuerDiscretionaryData.isEmpty)
        #expect(iad.issuerDiscretionaryDataOptionID == nil)
        let cvr = iad.cardVerificationResults
        #expect(cvr.firstGenerateAC == .arqc)
        #expect(cvr.secondGenerateAC == .notRequested)
        #expect(cvr == [.secondGenerateACNotRequested, .firstGenerateACARQC, .velocityCheckingCountersExceeded])
        #expect(cvr.reservedBits.isEmpty)
        #expect(cvr.cryptogramBytes == hexBytes("03A02000"))
        #expect(iad.bytes == hexBytes("06040A03A02000"))
    }

    /// test_cvn_hsm.py's Visa IADs: CVN 18's `06011203A0B800` and CVN 10's CVR `03A06010`.
    @Test func pyemvVisaIADs() throws {
        let cvn18 = try VisaIssuerApplicationData(bytes: hexBytes("06011203A0B800"))
        #expect(cvn18.format == 1)
        #expect(
            cvn18.cardVerificationResults == [
                .secondGenerateACNotRequested, .firstGenerateACARQC, .lastOnlineTransactionNotCompleted,
                .velocityCheckingCountersExceeded, .newCard, .issuerAuthenticationFailedOnLastOnlineTransaction,
            ])
        let cvn10 = try VisaCardVerificationResults(cryptogramBytes: hexBytes("03A06010"))
        #expect(
            cvn10.names == [
                "Second GENERATE AC not requested", "ARQC returned in first GENERATE AC", "PIN try limit exceeded",
                "Exceeded velocity checking counters",
            ])
        #expect(cvn10.issuerScriptCommandCount == 1)
        #expect(cvn10.reservedBits.isEmpty)
        #expect(cvn10.description.hasSuffix("Exceeded velocity checking counters; Issuer script commands processed 1"))
    }

    /// test_cvn_hsm.py's M/Chip IAD `0111A00003220000000000000000000322FF` (CVN 17).
    @Test func pyemvMastercardIAD() throws {
        let iad = try MastercardIssuerApplicationData(bytes: hexBytes("0111A00003220000000000000000000322FF"))
        #expect(iad.derivationKeyIndex == 0x01)
        #expect(iad.cryptogramVersionNumber == CryptogramVersion.mastercard17.number)
        #expect(iad.dataAuthenticationCode == 0)
        #expect(iad.counters == hexBytes("00000000000322FF"))
        #expect(iad.additionalData.isEmpty)
        let cvr = iad.cardVerificationResults
        #expect(cvr.firstGenerateAC == .arqc)
        #expect(cvr.secondGenerateAC == .notRequested)
        #expect(cvr.pinTryCounter == 3)
        #expect(cvr.scriptCounter == 0)
        #expect(
            cvr.names == [
                "Second GENERATE AC not requested", "ARQC returned in first GENERATE AC",
                "Offline PIN verification not performed", "Domestic transaction",
            ])
        #expect(cvr.bytes == hexBytes("A00003220000"))
        #expect(cvr.reservedBits.isEmpty)
        #expect(cvr.description.hasSuffix("Domestic transaction; PIN try counter 3"))
        // A bit that no M/Chip 4 table names is kept and shown as RFU.
        let rfu = MastercardCardVerificationResults(rawValue: 0x0004_0000_0000)
        #expect(rfu.reservedBits == rfu)
        #expect(rfu.description == "000400000000: RFU bits 000400000000")
    }

    // MARK: Cryptograms from typed pieces

    struct TypedCase: Sendable, CustomTestStringConvertible {
        let version: CryptogramVersion
        let iad: String
        let arqc: String
        var testDescription: String { "\(version)" }
    }

    /// pyemv's HSM-checked ARQCs (test_cvn_hsm.py), with the IAD each version's CVR and counters come from; CVN
    /// 22's ARQC is pyemv 1.5.0's `VisaCVN22.generate_ac` over the format 2 IAD built in ``visaFormat2``.
    @Test(arguments: [
        TypedCase(version: .visa10, iad: "06010A03A06010", arqc: "29CCA15AE665FA2E"),
        TypedCase(version: .visa18, iad: "06011203A0B800", arqc: "7A788EA6B8A3E733"),
        TypedCase(
            version: .visa22, iad: "1F2201A838000000" + "01" + String(repeating: "00", count: 23),
            arqc: "D60C31C7C581829A"),
        TypedCase(version: .interac133, iad: "1501850440B100000000B00000000000000000000000", arqc: "18932FECA2D84326"),
        TypedCase(version: .mastercard16, iad: "0110A00003220000000000000000000322FF", arqc: "24CCF3DEE3158C70"),
        TypedCase(version: .mastercard17, iad: "0111A00003220000000000000000000322FF", arqc: "EAE8A620A75648D8"),
        TypedCase(version: .mastercard20, iad: "0114A00003220000000000000000000322FF", arqc: "CD29615D6452E70E"),
        TypedCase(version: .mastercard21, iad: "0115A00003220000000000000000000322FF", arqc: "C30E54BE496CF5E5"),
    ])
    func arqcFromTypedPieces(_ example: TypedCase) throws {
        let isVisa = [.visa, .visaFormat2].contains(example.version.issuerApplicationDataFormat)
        let raw = isVisa ? CryptogramTests.visaData : CryptogramTests.mastercardData
        let data = try CryptogramData(
            version: example.version,
            amountAuthorized: raw.amountAuthorized, amountOther: raw.amountOther,
            terminalCountryCode: raw.terminalCountryCode, terminalVerificationResults: raw.terminalVerificationResults,
            transactionCurrencyCode: raw.transactionCurrencyCode, transactionDate: raw.transactionDate,
            transactionType: raw.transactionType, unpredictableNumber: raw.unpredictableNumber,
            applicationInterchangeProfile: raw.applicationInterchangeProfile,
            applicationTransactionCounter: raw.applicationTransactionCounter,
            issuerApplicationData: hexBytes(example.iad)
        )
        let card = try CryptogramTests.hsmCard(example.version)
        #expect(try card.generateAC(data).hexString == example.arqc)
        // The raw-bytes path, given the same IAD, builds the same AC data and cryptogram.
        var rawData = raw
        rawData.issuerApplicationData = hexBytes(example.iad)
        #expect(data.bytes(for: example.version) == rawData.bytes(for: example.version))
        #expect(try card.generateAC(rawData).hexString == example.arqc)
    }

    // MARK: Build ↔ parse

    @Test(arguments: [CryptogramVersion.visa10, .visa18])
    func visaRoundTrip(_ version: CryptogramVersion) throws {
        var cvr = VisaCardVerificationResults()
        cvr.firstGenerateAC = .arqc
        cvr.secondGenerateAC = .notRequested
        cvr.insert([.offlinePINVerificationPerformed, .newCard, .ddaPerformed])
        cvr.issuerScriptCommandCount = 2
        #expect(cvr.cryptogramBytes == hexBytes("03A41022"))
        for idd in [[], hexBytes("01" + String(repeating: "AB", count: 14))] {
            let iad = try VisaIssuerApplicationData(
                derivationKeyIndex: 0x01, cryptogramVersionNumber: version.number, cardVerificationResults: cvr,
                issuerDiscretionaryData: idd
            )
            #expect(iad.bytes.count == (idd.isEmpty ? 7 : 8 + idd.count))
            #expect(try VisaIssuerApplicationData(bytes: iad.bytes) == iad)
            #expect(try IssuerApplicationData(visa: iad.bytes).cardVerificationResults == cvr.cryptogramBytes)
            var data = CryptogramTests.visaData
            try data.setIssuerApplicationData(iad, for: version)
            #expect(data.issuerApplicationData == iad.bytes)
            #expect(data.cardVerificationResults == hexBytes("03A41022"))
        }
        let withIDD = try VisaIssuerApplicationData(
            bytes: hexBytes("06011203A0B800" + "0F" + "01" + String(repeating: "00", count: 14)))
        #expect(withIDD.issuerDiscretionaryDataOptionID == 1)
    }

    @Test func visaFormat2() throws {
        var cvr: VisaFormat2CardVerificationResults = [.cdaPerformed, .offlinePINVerificationPerformed]
        cvr.firstGenerateAC = .arqc
        cvr.secondGenerateAC = .notRequested
        cvr.pinTryCounter = 3
        #expect(cvr.bytes == hexBytes("A838000000"))
        let iad = try VisaFormat2IssuerApplicationData(
            cryptogramVersionNumber: CryptogramVersion.visa22.number, derivationKeyIndex: 0x01,
            cardVerificationResults: cvr, issuerDiscretionaryData: [0x01]
        )
        let expected = hexBytes("1F2201A838000000" + "01" + String(repeating: "00", count: 23))
        #expect(iad.bytes == expected)
        #expect(iad.issuerDiscretionaryDataOptionID == 1)
        let parsed = try VisaFormat2IssuerApplicationData(bytes: expected)
        #expect(parsed == iad)
        #expect(
            parsed.cardVerificationResults.names == [
                "Second GENERATE AC not requested", "ARQC returned in first GENERATE AC", "CDA performed",
                "Offline PIN verification performed",
            ])
        let legacy = try IssuerApplicationData(visa: expected)
        #expect(legacy.cryptogramVersionNumber == 0x22)
        #expect(legacy.derivationKeyIndex == 0x01)
        #expect(legacy.cardVerificationResults == hexBytes("A838000000"))
        var data = CryptogramTests.visaData
        try data.setIssuerApplicationData(iad, for: .visa22)
        #expect(data.issuerApplicationData == expected)
        #expect(data.bytes(for: .visa22).suffix(32) == expected[...])
    }

    @Test(arguments: [CryptogramVersion.mastercard16, .mastercard17, .mastercard20, .mastercard21])
    func mastercardRoundTrip(_ version: CryptogramVersion) throws {
        var cvr: MastercardCardVerificationResults = [
            .cdaReturnedInFirstGenerateAC, .offlinePINVerificationNotPerformed, .internationalTransaction,
            .scriptReceived, .additionalCheckTableNoMatch,
        ]
        cvr.firstGenerateAC = .arqc
        cvr.secondGenerateAC = .notRequested
        cvr.pinTryCounter = 3
        cvr.scriptCounter = 1
        #expect(cvr.bytes == hexBytes("A04013240201"))
        for extra in [[], hexBytes("001C")] {
            let iad = try MastercardIssuerApplicationData(
                derivationKeyIndex: 0x01, cryptogramVersionNumber: version.number, cardVerificationResults: cvr,
                dataAuthenticationCode: 0xDAC1, counters: hexBytes("0000000000000102"), additionalData: extra
            )
            #expect(iad.bytes.count == 18 + extra.count)
            #expect(Array(iad.bytes[8..<10]) == [0xDA, 0xC1])
            #expect(try MastercardIssuerApplicationData(bytes: iad.bytes) == iad)
            let legacy = try IssuerApplicationData(mastercard: iad.bytes)
            #expect(legacy.cardVerificationResults == cvr.bytes)
            #expect(legacy.counters == iad.counters)
            var data = CryptogramTests.mastercardData
            try data.setIssuerApplicationData(iad.bytes, for: version)
            #expect(data.cardVerificationResults == cvr.bytes)
            #expect(data.counters == hexBytes("0000000000000102"))
        }
    }

    // MARK: Formats and errors

    @Test func formatPerVersion() {
        #expect(
            CryptogramVersion.allCases.map(\.issuerApplicationDataFormat) == [
                .visa, .visa, .visaFormat2, .interac, .mastercard, .mastercard, .mastercard, .mastercard,
            ])
    }

    @Test func twoBitFieldsRoundTrip() {
        for first in FirstGenerateACCryptogramType.allCases {
            for second in SecondGenerateACCryptogramType.allCases {
                var visa = VisaCardVerificationResults()
                var format2 = VisaFormat2CardVerificationResults()
                var mastercard = MastercardCardVerificationResults()
                visa.firstGenerateAC = first
                visa.secondGenerateAC = second
                format2.firstGenerateAC = first
                format2.secondGenerateAC = second
                mastercard.firstGenerateAC = first
                mastercard.secondGenerateAC = second
                let byte = second.rawValue << 6 | first.rawValue << 4
                #expect(visa.bytes == [byte, 0, 0])
                #expect(format2.bytes == [byte, 0, 0, 0, 0])
                #expect(mastercard.bytes == [byte, 0, 0, 0, 0, 0])
                #expect(visa.firstGenerateAC == first && visa.secondGenerateAC == second)
            }
        }
    }

    @Test func typedErrors() throws {
        let short: [String] = ["", "06", "06010A03A060", "07010A03A06010", "06010A04A06010", "06010A03A060100F01"]
        for hex in short {
            #expect(throws: CryptoError.invalidFieldLength) { try VisaIssuerApplicationData(bytes: hexBytes(hex)) }
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try VisaCardVerificationResults(cryptogramBytes: hexBytes("04A0200000"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try VisaFormat2IssuerApplicationData(bytes: hexBytes("1F2201A838000000"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try VisaFormat2IssuerApplicationData(bytes: hexBytes("0622" + String(repeating: "00", count: 30)))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try VisaFormat2IssuerApplicationData(
                cryptogramVersionNumber: 0x22, derivationKeyIndex: 1, cardVerificationResults: [],
                issuerDiscretionaryData: [UInt8](repeating: 0, count: 25))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try VisaIssuerApplicationData(
                derivationKeyIndex: 1, cryptogramVersionNumber: 0x0A, cardVerificationResults: [],
                issuerDiscretionaryData: [UInt8](repeating: 0, count: 256))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try MastercardIssuerApplicationData(bytes: hexBytes("0111A00003220000000000000000000322"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try MastercardIssuerApplicationData(
                derivationKeyIndex: 1, cryptogramVersionNumber: 0x11, cardVerificationResults: [], counters: [0])
        }
        // The IAD must have the version's layout and CVN.
        var data = CryptogramTests.visaData
        #expect(throws: CryptoError.invalidFieldLength) {
            try data.setIssuerApplicationData(hexBytes("06011203A0B800"), for: .visa22)
        }
        #expect(throws: CryptoError.invalidParameter) {
            try data.setIssuerApplicationData(hexBytes("06011203A0B800"), for: .visa10)
        }
        #expect(throws: CryptoError.invalidParameter) {
            try data.setIssuerApplicationData(
                VisaIssuerApplicationData(bytes: hexBytes("06010A03A06010")), for: .mastercard16)
        }
        #expect(throws: CryptoError.invalidParameter) {
            try data.setIssuerApplicationData(hexBytes("0111A00003220000000000000000000322FF"), for: .mastercard21)
        }
        // A failed set leaves the data as it was.
        #expect(data == CryptogramTests.visaData)
    }
}
