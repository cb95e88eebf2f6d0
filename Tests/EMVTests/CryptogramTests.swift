import EMV
import Testing

@Suite struct CryptogramTests {
    // MARK: pyemv 1.5.0 vectors

    @Test(arguments: PyEMVVectors.cases("pyemv-ac", op: "ac.generate_ac"))
    func genericMatchesPyEMV(_ vector: PyEMVCase) throws {
        let padding: ApplicationCryptogram.Padding = vector.text("padding_type") == "VISA" ? .visa : .emv
        try vector.check {
            try ApplicationCryptogram.generate(
                sessionKey: vector.bytes("sk_ac"),
                data: vector.bytes("data"),
                padding: padding,
                length: vector.integer("length") ?? 8
            ).hexString
        }
    }

    @Test(arguments: PyEMVVectors.cases("pyemv-cvn").filter { $0.op.hasSuffix(".generate_ac") })
    func versionsMatchPyEMV(_ vector: PyEMVCase) throws {
        try vector.check { try vector.card().generateAC(vector.cryptogramData()).hexString }
    }

    /// The entry point over already concatenated data (the batch's fast path) gives pyemv's cryptograms too.
    @Test(arguments: PyEMVVectors.cases("pyemv-cvn").filter { $0.op.hasSuffix(".generate_ac") })
    func concatenatedDataMatchesPyEMV(_ vector: PyEMVCase) throws {
        try vector.check {
            let card = try vector.card()
            let data = try vector.cryptogramData()
            return try card.generateAC(
                concatenatedData: data.bytes(for: card.version),
                atc: data.applicationTransactionCounter[...],
                unpredictableNumber: data.unpredictableNumber[...]
            ).hexString
        }
    }

    // MARK: pyemv's documented examples (ac.py and cvn.py docstrings)

    @Test func docstringExamples() throws {
        #expect(
            try ApplicationCryptogram.generate(
                sessionKey: hexBytes("29B33180E567CE38EA4CBC9D753B0E61"),
                data: hexBytes("0123456789ABCDEF0123456789ABCDEF")
            ).hexString == "FA624250B008B59A")
        let data = hexBytes(
            "000000002000" + "000000000000" + "0124" + "0000008000" + "0124" + "110309" + "00"
                + "3804823E" + "5800" + "0001")
        #expect(
            try ApplicationCryptogram.generate(sessionKey: hexBytes("AAAAAAAAAAAAAAAABBBBBBBBBBBBBBBB"), data: data)
                .hexString == "3B76CF10FECD8789")
    }

    @Test func visaCVN18ModuleExample() throws {
        let card = try CardCryptograms(
            version: .visa18,
            issuerMasterKeyAC: hexBytes("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
            issuerMasterKeySMI: hexBytes("BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"),
            issuerMasterKeySMC: hexBytes("CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC"),
            pan: "1234567890123456",
            psn: "00"
        )
        let data = CryptogramData(
            amountAuthorized: hexBytes("000000009999"), amountOther: hexBytes("000000000000"),
            terminalCountryCode: hexBytes("0840"),
            terminalVerificationResults: hexBytes("8000048000"), transactionCurrencyCode: hexBytes("0840"),
            transactionDate: hexBytes("991231"), transactionType: hexBytes("01"),
            unpredictableNumber: hexBytes("52BF4585"),
            applicationInterchangeProfile: hexBytes("1800"), applicationTransactionCounter: hexBytes("0FFF"),
            issuerApplicationData: hexBytes("06011203A0B800")
        )
        let arqc = try card.generateAC(data)
        #expect(arqc.hexString == "769577B5ABE9FE62")
        #expect(try card.verifyAC(arqc, data: data))
        #expect(
            try card.generateARPC(arqc: arqc, atc: hexBytes("0FFF"), cardStatusUpdate: hexBytes("00000000")).hexString
                == "76503F48")
    }

    // MARK: pyemv's HSM-checked tests (tests/test_cvn_hsm.py, test_ac_hsm.py, test_kd_hsm.py)

    /// The card of every test_cvn_hsm.py case: one issuer key set, PAN 1234567890123456, PSN 00.
    static func hsmCard(_ version: CryptogramVersion) throws -> CardCryptograms {
        try CardCryptograms(
            version: version,
            issuerMasterKeyAC: hexBytes("0123456789ABCDEFFEDCBA9876543210"),
            issuerMasterKeySMI: hexBytes("FEDCBA98765432100123456789ABCDEF"),
            issuerMasterKeySMC: hexBytes("89ABCDEF0123456776543210FEDCBA98"),
            pan: "1234567890123456",
            psn: "00"
        )
    }

    /// test_cvn_hsm.py's Visa transaction (ATC 001C).
    static let visaData = CryptogramData(
        amountAuthorized: hexBytes("000000004000"), amountOther: hexBytes("000000000000"),
        terminalCountryCode: hexBytes("0124"),
        terminalVerificationResults: hexBytes("8000048000"), transactionCurrencyCode: hexBytes("0124"),
        transactionDate: hexBytes("191105"), transactionType: hexBytes("01"), unpredictableNumber: hexBytes("52BF4585"),
        applicationInterchangeProfile: hexBytes("1800"), applicationTransactionCounter: hexBytes("001C"),
        issuerApplicationData: hexBytes("06011203A0B800"), cardVerificationResults: hexBytes("03A06010")
    )

    /// test_cvn_hsm.py's Mastercard and Interac transaction (ATC 001C, UN ABCDEF12).
    static let mastercardData = CryptogramData(
        amountAuthorized: hexBytes("000000009999"), amountOther: hexBytes("000000000000"),
        terminalCountryCode: hexBytes("0124"),
        terminalVerificationResults: hexBytes("8000000000"), transactionCurrencyCode: hexBytes("0124"),
        transactionDate: hexBytes("209906"), transactionType: hexBytes("00"), unpredictableNumber: hexBytes("ABCDEF12"),
        applicationInterchangeProfile: hexBytes("1800"), applicationTransactionCounter: hexBytes("001C"),
        issuerApplicationData: hexBytes("1501850440B100000000B00000000000000000000000"),
        cardVerificationResults: hexBytes("A00003220000"), counters: hexBytes("00000000000322FF")
    )

    struct HSMCase: Sendable, CustomTestStringConvertible {
        let version: CryptogramVersion
        let arqc: String
        let sessionKeyKCV: String
        var testDescription: String { "\(version)" }
    }

    @Test(arguments: [
        HSMCase(version: .visa10, arqc: "29CCA15AE665FA2E", sessionKeyKCV: "BAB0"),
        HSMCase(version: .visa18, arqc: "7A788EA6B8A3E733", sessionKeyKCV: "22C8"),
        HSMCase(version: .interac133, arqc: "18932FECA2D84326", sessionKeyKCV: "2FD5"),
        HSMCase(version: .mastercard16, arqc: "24CCF3DEE3158C70", sessionKeyKCV: "2FD5"),
        HSMCase(version: .mastercard17, arqc: "EAE8A620A75648D8", sessionKeyKCV: "2FD5"),
        HSMCase(version: .mastercard20, arqc: "CD29615D6452E70E", sessionKeyKCV: "22C8"),
        HSMCase(version: .mastercard21, arqc: "C30E54BE496CF5E5", sessionKeyKCV: "22C8"),
    ])
    func hsmCryptograms(_ example: HSMCase) throws {
        let card = try Self.hsmCard(example.version)
        #expect(try kcv(card.iccMasterKeys.ac) == "BAB0")
        #expect(try kcv(card.iccMasterKeys.smi) == "F010")
        #expect(try kcv(card.iccMasterKeys.smc) == "B154")
        let data = example.version.number < 0x10 || example.version == .visa18 ? Self.visaData : Self.mastercardData
        #expect(
            try kcv(card.acSessionKey(atc: hexBytes("001C"), unpredictableNumber: data.unpredictableNumber))
                == example.sessionKeyKCV)
        let arqc = try card.generateAC(data)
        #expect(arqc.hexString == example.arqc)
        #expect(try card.verifyAC(hexBytes(example.arqc), data: data))
    }

    @Test func hsmGenericCryptograms() throws {
        // tests/test_ac_hsm.py: ICC master key option A, common session key with R = 1234567890123456.
        let masterKey = try KeyDerivation.iccMasterKeyOptionA(
            issuerMasterKey: KeyDerivationTests.issuerKey, pan: "9901234567890123", psn: "45"
        )
        let sessionKey = try SessionKey.common(iccMasterKey: masterKey, diversification: hexBytes("1234567890123456"))
        let data = hexBytes("0123456789ABCDEF0123456789ABCDEF")
        #expect(try ApplicationCryptogram.generate(sessionKey: sessionKey, data: data).hexString == "4B46013359B7A58B")
        #expect(
            try ApplicationCryptogram.generate(sessionKey: sessionKey, data: data, padding: .visa).hexString
                == "922F3E83125EB46B")
        #expect(
            try ApplicationCryptogram.generate(sessionKey: sessionKey, data: data + [0x01], padding: .visa).hexString
                == "2E141C6BC4A20DA8")
        // tests/test_kd_hsm.py, option B with decimalised digest letters, on real Visa CVN 18 data.
        let optionB = try KeyDerivation.iccMasterKeyOptionB(
            issuerMasterKey: KeyDerivationTests.issuerKey, pan: "000000000000000005", psn: "23"
        )
        let visaKey = try SessionKey.common(iccMasterKey: optionB, atc: hexBytes("001C"))
        let visaData = hexBytes(
            "00000000400000000000000001248000048000012" + "41911050152BF45851800001C06011203A0B800"
        )
        #expect(try ApplicationCryptogram.generate(sessionKey: visaKey, data: visaData).hexString == "8CAD6F2489C640B1")
    }

    // MARK: Verification, data layout and errors

    @Test func verifyRejectsAnyChangedByte() throws {
        let card = try Self.hsmCard(.visa18)
        let arqc = hexBytes("7A788EA6B8A3E733")
        #expect(try card.verifyAC(arqc, data: Self.visaData))
        #expect(try card.verifyAC(Array(arqc.prefix(4)), data: Self.visaData))  // a truncated cryptogram
        for index in arqc.indices {
            var changed = arqc
            changed[index] ^= 0x01
            #expect(try !card.verifyAC(changed, data: Self.visaData))
        }
        #expect(try !card.verifyAC([], data: Self.visaData))
        #expect(try !card.verifyAC(Array(arqc.prefix(3)), data: Self.visaData))
        #expect(try !card.verifyAC(arqc + [0], data: Self.visaData))
        var otherData = Self.visaData
        otherData.amountAuthorized = hexBytes("000000004001")
        #expect(try !card.verifyAC(arqc, data: otherData))
        let sessionKey = try card.acSessionKey(atc: hexBytes("001C"))
        let bytes = Self.visaData.bytes(for: .visa18)
        #expect(try ApplicationCryptogram.verify(arqc, sessionKey: sessionKey, data: bytes))
        #expect(try !ApplicationCryptogram.verify(arqc, sessionKey: sessionKey, data: bytes, padding: .visa))
    }

    @Test func dataLayoutPerVersion() {
        let common =
            "000000004000" + "000000000000" + "0124" + "8000048000" + "0124" + "191105" + "01" + "52BF4585"
            + "1800" + "001C"
        #expect(Self.visaData.bytes(for: .visa10).hexString == common + "03A06010")
        #expect(Self.visaData.bytes(for: .visa18).hexString == common + "06011203A0B800")
        #expect(Self.visaData.bytes(for: .visa22).hexString == common + "06011203A0B800")
        let data = Self.mastercardData
        let mastercardCommon = data.bytes(for: .mastercard16).dropLast(6)
        #expect(data.bytes(for: .mastercard17) == mastercardCommon + hexBytes("A00003220000" + "00000000000322FF"))
        #expect(data.bytes(for: .interac133) == mastercardCommon + data.issuerApplicationData)
    }

    @Test func versionProperties() {
        #expect(CryptogramVersion.allCases.map(\.number) == [0x0A, 0x12, 0x22, 0x85, 0x10, 0x11, 0x14, 0x15])
        #expect(CryptogramVersion.allCases.filter { $0.masterKeyDerivation == .b } == [.visa18, .visa22])
        #expect(CryptogramVersion.allCases.filter { $0.padding == .visa } == [.visa10])
        #expect(CryptogramVersion.allCases.filter { $0.arpcMethod == .method2 } == [.visa18, .visa22])
    }

    @Test func issuerApplicationDataFields() throws {
        let visa = try IssuerApplicationData(visa: hexBytes("06010A03A06010"))
        #expect(visa.derivationKeyIndex == 0x01)
        #expect(visa.cryptogramVersionNumber == CryptogramVersion.visa10.number)
        #expect(visa.cardVerificationResults == hexBytes("03A06010"))
        #expect(visa.counters.isEmpty)
        // test_cvn_hsm.py's comment gives the M/Chip IAD its CVR and counters come from.
        let mastercard = try IssuerApplicationData(mastercard: hexBytes("0111A00003220000000000000000000322FF"))
        #expect(mastercard.cryptogramVersionNumber == CryptogramVersion.mastercard17.number)
        #expect(mastercard.cardVerificationResults == hexBytes("A00003220000"))
        #expect(mastercard.counters == hexBytes("00000000000322FF"))
        #expect(throws: CryptoError.invalidFieldLength) { try IssuerApplicationData(visa: hexBytes("1F4301")) }
        #expect(throws: CryptoError.invalidFieldLength) { try IssuerApplicationData(visa: hexBytes("06010A03A060")) }
        #expect(throws: CryptoError.invalidFieldLength) { try IssuerApplicationData(mastercard: hexBytes("0110A000")) }
    }

    @Test func typedErrors() throws {
        #expect(throws: CryptoError.invalidKeyLength) {
            try ApplicationCryptogram.generate(sessionKey: hexBytes("0123456789ABCDEF"), data: [])
        }
        #expect(throws: CryptoError.invalidKeyLength) {
            try ApplicationCryptogram.verify([], sessionKey: [], data: [])
        }
        #expect(throws: CryptoError.invalidKeyLength) {
            try ICCMasterKeys(ac: hexBytes("00"), smi: KeyDerivationTests.issuerKey, smc: KeyDerivationTests.issuerKey)
        }
        #expect(throws: CryptoError.invalidPAN) {
            try CardCryptograms(
                version: .mastercard16, issuerMasterKeyAC: KeyDerivationTests.issuerKey,
                issuerMasterKeySMI: KeyDerivationTests.issuerKey, issuerMasterKeySMC: KeyDerivationTests.issuerKey,
                pan: "5413 3300 8902 0011"
            )
        }
        var data = Self.visaData
        data.applicationTransactionCounter = hexBytes("001C00")
        #expect(throws: CryptoError.invalidFieldLength) { try Self.hsmCard(.visa18).generateAC(data) }
        #expect(throws: CryptoError.invalidFieldLength) { try Self.hsmCard(.mastercard20).generateAC(data) }
        // Visa CVN 10 derives no session key, so any ATC length is accepted, as in pyemv.
        #expect(try Self.hsmCard(.visa10).generateAC(data).count == 8)
        // Mastercard checks only that ATC and UN make 6 bytes together.
        data.unpredictableNumber = hexBytes("ABCDEF")
        #expect(try Self.hsmCard(.mastercard16).generateAC(data).count == 8)
        data.unpredictableNumber = hexBytes("ABCDEF12")
        #expect(throws: CryptoError.invalidFieldLength) { try Self.hsmCard(.mastercard16).generateAC(data) }
    }

    @Test func lengthSlicesLikePython() throws {
        let key = hexBytes("AAAAAAAAAAAAAAAABBBBBBBBBBBBBBBB")
        let full = try ApplicationCryptogram.generate(sessionKey: key, data: [1, 2, 3])
        for (length, count) in [(4, 4), (8, 8), (0, 0), (12, 8), (-1, 7), (-8, 0), (-20, 0)] {
            let mac = try ApplicationCryptogram.generate(sessionKey: key, data: [1, 2, 3], length: length)
            #expect(mac == Array(full.prefix(count)))
        }
    }

    @Test func descriptionsRedactKeys() throws {
        let card = try Self.hsmCard(.visa18)
        let texts = [card.description, card.iccMasterKeys.description, String(describing: card)]
        for text in texts {
            #expect(!text.contains(card.iccMasterKeys.ac.hexString))
            #expect(text.contains("redacted"))
        }
    }
}
