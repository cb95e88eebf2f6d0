import EMV
import Testing

/// Hex to bytes for literals the test controls.
func hexBytes(_ text: String) -> [UInt8] { [UInt8](hex: text) ?? [] }

/// pyemv's 2-byte key check digits (`tools.key_check_digits`), as the HSM-checked tests quote them.
func kcv(_ key: [UInt8]) throws -> String { try TDESKey(key).checkValue(length: 2).hexString }

@Suite struct KeyDerivationTests {
    static let issuerKey = hexBytes("0123456789ABCDEFFEDCBA9876543210")

    // MARK: pyemv 1.5.0 vectors

    @Test(arguments: PyEMVVectors.cases("pyemv-kd"))
    func matchesPyEMV(_ vector: PyEMVCase) throws {
        try vector.check {
            switch vector.op {
            case "kd.derive_icc_mk_a":
                try KeyDerivation.iccMasterKeyOptionA(
                    issuerMasterKey: vector.bytes("iss_mk"), pan: vector.text("pan") ?? "", psn: vector.text("psn")
                ).hexString
            case "kd.derive_icc_mk_b":
                try KeyDerivation.iccMasterKeyOptionB(
                    issuerMasterKey: vector.bytes("iss_mk"), pan: vector.text("pan") ?? "", psn: vector.text("psn")
                ).hexString
            case "kd.derive_common_sk":
                try SessionKey.common(iccMasterKey: vector.bytes("icc_mk"), diversification: vector.bytes("r"))
                    .hexString
            case "kd.derive_visa_sm_sk":
                try SessionKey.visaSecureMessaging(iccMasterKey: vector.bytes("icc_mk"), atc: vector.bytes("atc"))
                    .hexString
            case "kd.derive_emv2000_tree_sk":
                try SessionKey.emv2000Tree(
                    iccMasterKey: vector.bytes("icc_mk"),
                    atc: vector.bytes("atc"),
                    height: vector.integer("height") ?? 8,
                    branchFactor: vector.integer("branch_factor") ?? 4,
                    iv: vector.optionalBytes("iv") ?? [UInt8](repeating: 0, count: 16)
                ).hexString
            default:
                Issue.record("unknown op \(vector.op)").description
            }
        }
    }

    // MARK: pyemv's documented examples (kd.py docstrings)

    @Test func docstringExamples() throws {
        #expect(
            try KeyDerivation.iccMasterKeyOptionA(issuerMasterKey: Self.issuerKey, pan: "99012345678901234", psn: "45")
                .hexString == "67F8292358083E5EA7AB7FDA58D53B6B")
        #expect(
            try KeyDerivation.iccMasterKeyOptionA(issuerMasterKey: Self.issuerKey, pan: "12345678901234567", psn: "01")
                .hexString == "73AD54688CEF2934B0979857E3C719F1")
        #expect(
            try KeyDerivation.iccMasterKeyOptionB(issuerMasterKey: Self.issuerKey, pan: "12345678901234567", psn: "01")
                .hexString == "AD406D7F6D7570916D75E5DCAB8CF737")
        #expect(
            try SessionKey.common(iccMasterKey: Self.issuerKey, diversification: hexBytes("001C000000000000")).hexString
                == "E9FB384AF807B940FEDCEA613461B0C4")
        #expect(
            try SessionKey.visaSecureMessaging(iccMasterKey: Self.issuerKey, atc: hexBytes("001C")).hexString
                == "0123456789ABCDF2FEDCBA987654CDF2")
        #expect(
            try SessionKey.emv2000Tree(iccMasterKey: Self.issuerKey, atc: hexBytes("001C"), height: 8, branchFactor: 4)
                .hexString == "E5BF6D1067F194B0A89B7F5D83BC64A2")
    }

    // MARK: pyemv's HSM-checked tests (tests/test_kd_hsm.py, key check values)

    struct HSMCase: Sendable, CustomTestStringConvertible {
        let option: KeyDerivation.Option
        let pan: String
        let psn: String?
        let masterKeyKCV: String?
        let sessionKeyKCV: String
        var testDescription: String { "option \(option) PAN length \(pan.count)" }
    }

    @Test(arguments: [
        HSMCase(option: .a, pan: "12345678901234567", psn: "45", masterKeyKCV: "FF08", sessionKeyKCV: "DF82"),
        HSMCase(option: .a, pan: "12345678901234567", psn: nil, masterKeyKCV: nil, sessionKeyKCV: "3F4F"),
        HSMCase(option: .b, pan: "1234567890123456", psn: nil, masterKeyKCV: "BAB0", sessionKeyKCV: "BC19"),
        HSMCase(option: .b, pan: "12345678901234567", psn: "45", masterKeyKCV: "0BAF", sessionKeyKCV: "4262"),
        HSMCase(option: .b, pan: "12345678901234567", psn: nil, masterKeyKCV: "4626", sessionKeyKCV: "7F36"),
        HSMCase(option: .b, pan: "123456789012345679", psn: "00", masterKeyKCV: "C2F3", sessionKeyKCV: "7C35"),
        HSMCase(option: .a, pan: "9901234567890123", psn: "45", masterKeyKCV: "1DA5", sessionKeyKCV: "0995"),
    ])
    func hsmKeyCheckValues(_ example: HSMCase) throws {
        #expect(try kcv(Self.issuerKey) == "08D7")
        let masterKey = try KeyDerivation.iccMasterKey(
            option: example.option, issuerMasterKey: Self.issuerKey, pan: example.pan, psn: example.psn
        )
        if let expected = example.masterKeyKCV {
            #expect(try kcv(masterKey) == expected)
        }
        let sessionKey = try SessionKey.common(iccMasterKey: masterKey, diversification: hexBytes("1234567890123456"))
        #expect(try kcv(sessionKey) == example.sessionKeyKCV)
    }

    @Test func hsmOptionBDecimalisesDigestLetters() throws {
        // SHA-1 of this PAN and PSN has fewer than 16 decimal digits, so letters are decimalised (e -> 4).
        let masterKey = try KeyDerivation.iccMasterKeyOptionB(
            issuerMasterKey: Self.issuerKey, pan: "000000000000000005", psn: "23"
        )
        #expect(try kcv(masterKey) == "DD73")
        #expect(try kcv(SessionKey.common(iccMasterKey: masterKey, atc: hexBytes("001C"))) == "04F8")
    }

    @Test func hsmVisaSecureMessagingKey() throws {
        let masterKey = try KeyDerivation.iccMasterKeyOptionB(
            issuerMasterKey: hexBytes("FEDCBA98765432100123456789ABCDEF"), pan: "1234567890123456"
        )
        #expect(try kcv(masterKey) == "F010")
        #expect(try kcv(SessionKey.visaSecureMessaging(iccMasterKey: masterKey, atc: hexBytes("001C"))) == "DB10")
    }

    // MARK: Rules pyemv follows that are easy to get wrong

    @Test func optionAReadsOnlyTheLast16Characters() throws {
        let withJunk = try KeyDerivation.iccMasterKeyOptionA(
            issuerMasterKey: Self.issuerKey, pan: "é-12345678901234567", psn: "01"
        )
        let plain = try KeyDerivation.iccMasterKeyOptionA(
            issuerMasterKey: Self.issuerKey, pan: "12345678901234567", psn: "01"
        )
        #expect(withJunk == plain)
    }

    @Test func charactersNotBytesCountAsPythonDoes() throws {
        // 16 characters (18 UTF-8 bytes): option B falls back to option A, whose last 16 of PAN ‖ PSN leave out "é".
        let accented = try KeyDerivation.iccMasterKeyOptionB(
            issuerMasterKey: Self.issuerKey, pan: "é123456789012345", psn: "01"
        )
        let plain = try KeyDerivation.iccMasterKeyOptionA(
            issuerMasterKey: Self.issuerKey, pan: "9123456789012345", psn: "01"
        )
        #expect(accented == plain)
        // One of the last 16 characters is not a hex digit.
        #expect(throws: CryptoError.self) {
            try KeyDerivation.iccMasterKeyOptionA(issuerMasterKey: Self.issuerKey, pan: "12345678901234é", psn: "01")
        }
    }

    @Test func emptyPSNStaysEmptyButMissingMeansZeros() throws {
        let missing = try KeyDerivation.iccMasterKeyOptionA(issuerMasterKey: Self.issuerKey, pan: "1234567890123456")
        let zeros = try KeyDerivation.iccMasterKeyOptionA(
            issuerMasterKey: Self.issuerKey, pan: "1234567890123456", psn: "00"
        )
        let empty = try KeyDerivation.iccMasterKeyOptionA(
            issuerMasterKey: Self.issuerKey, pan: "1234567890123456", psn: ""
        )
        #expect(missing == zeros)
        #expect(empty != zeros)
    }

    @Test func derivedKeysHaveOddParity() throws {
        let key = try KeyDerivation.iccMasterKeyOptionB(issuerMasterKey: Self.issuerKey, pan: "1234567890123456789")
        #expect(key.hasOddParity)
        #expect(try SessionKey.common(iccMasterKey: key, atc: hexBytes("0001")).hasOddParity)
        #expect(
            try SessionKey.mastercard(
                iccMasterKey: key, atc: hexBytes("0001"), unpredictableNumber: hexBytes("01020304")
            )
            .hasOddParity)
    }

    @Test func mastercardSessionKeyIsCommonWithATCAndUN() throws {
        let key = try KeyDerivation.iccMasterKeyOptionA(issuerMasterKey: Self.issuerKey, pan: "5413330089020011")
        let mastercard = try SessionKey.mastercard(
            iccMasterKey: key, atc: hexBytes("001C"), unpredictableNumber: hexBytes("ABCDEF12")
        )
        let common = try SessionKey.common(iccMasterKey: key, diversification: hexBytes("001C0000ABCDEF12"))
        #expect(mastercard == common)
        // Like pyemv's CVN classes, only the total of 6 bytes matters.
        #expect(
            try SessionKey.mastercard(
                iccMasterKey: key, atc: hexBytes("001C00"), unpredictableNumber: hexBytes("00ABCD"))
                == SessionKey.common(iccMasterKey: key, diversification: hexBytes("001C00000000ABCD")))
    }

    // MARK: Typed errors

    @Test func keyLengthErrors() {
        #expect(throws: CryptoError.invalidKeyLength) {
            try KeyDerivation.iccMasterKeyOptionA(issuerMasterKey: hexBytes("0123456789AB"), pan: "1234567890123456")
        }
        #expect(throws: CryptoError.invalidKeyLength) {
            try SessionKey.common(
                iccMasterKey: hexBytes("0123456789ABCDEF"), diversification: hexBytes("0000000000000000"))
        }
        #expect(throws: CryptoError.invalidKeyLength) {
            try SessionKey.visaSecureMessaging(iccMasterKey: [], atc: hexBytes("0001"))
        }
        #expect(throws: CryptoError.invalidKeyLength) {
            try SessionKey.emv2000Tree(iccMasterKey: hexBytes("0123456789ABCDEF"), atc: hexBytes("0001"))
        }
    }

    @Test func panErrors() {
        #expect(throws: CryptoError.invalidPAN) {
            try KeyDerivation.iccMasterKeyOptionA(issuerMasterKey: Self.issuerKey, pan: "1234 5678 9012 3456")
        }
        #expect(throws: CryptoError.invalidPAN) {
            try KeyDerivation.iccMasterKeyOptionB(issuerMasterKey: Self.issuerKey, pan: "1234567890123456X")
        }
        // Option B with a long PAN needs an even number of digits in PAN || PSN after the PAN's leading zero.
        #expect(throws: CryptoError.invalidPAN) {
            try KeyDerivation.iccMasterKeyOptionB(issuerMasterKey: Self.issuerKey, pan: "12345678901234567", psn: "1")
        }
    }

    @Test func fieldLengthErrors() {
        let key = Self.issuerKey
        #expect(throws: CryptoError.invalidFieldLength) {
            try SessionKey.common(iccMasterKey: key, diversification: hexBytes("00000000000000"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try SessionKey.common(iccMasterKey: key, atc: hexBytes("000001"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try SessionKey.mastercard(iccMasterKey: key, atc: hexBytes("0001"), unpredictableNumber: hexBytes("010203"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try SessionKey.visaSecureMessaging(iccMasterKey: key, atc: hexBytes("01"))
        }
        #expect(throws: CryptoError.invalidFieldLength) { try SessionKey.emv2000Tree(iccMasterKey: key, atc: []) }
    }

    @Test func treeErrors() {
        let key = Self.issuerKey
        #expect(throws: CryptoError.invalidIVLength) {
            try SessionKey.emv2000Tree(iccMasterKey: key, atc: hexBytes("0001"), iv: hexBytes("0000000000000000"))
        }
        for (height, branchFactor) in [(15, 2), (8, 3), (0, 4), (-1, 4), (8, 1), (8, 0), (3, -41)] {
            #expect(throws: CryptoError.invalidParameter) {
                try SessionKey.emv2000Tree(
                    iccMasterKey: key, atc: hexBytes("0001"), height: height, branchFactor: branchFactor)
            }
        }
        // A negative branch factor passes pyemv's size check with an even height, then fails on a negative index.
        #expect(throws: CryptoError.invalidParameter) {
            try SessionKey.emv2000Tree(iccMasterKey: key, atc: hexBytes("0005"), height: 8, branchFactor: -4)
        }
        #expect(throws: CryptoError.invalidParameter) {
            try SessionKey.emv2000Tree(
                iccMasterKey: key, atc: hexBytes("0001"), height: SessionKey.maximumTreeHeight + 1, branchFactor: 2
            )
        }
    }

    @Test func errorsNeverShowKeysOrPAN() {
        let key = hexBytes("0123456789ABCDEFFEDCBA98765432")  // 15 bytes
        let pan = "4761739001010010Z"
        let errors: [CryptoError] = [
            catchError { try KeyDerivation.iccMasterKeyOptionA(issuerMasterKey: key, pan: "4761739001010010") },
            catchError { try KeyDerivation.iccMasterKeyOptionB(issuerMasterKey: Self.issuerKey, pan: pan) },
            catchError { try SessionKey.common(iccMasterKey: key, atc: hexBytes("0001")) },
        ].compactMap { $0 }
        #expect(errors.count == 3)
        for error in errors {
            #expect(!error.description.contains("0123456789ABCDEF"))
            #expect(!error.description.contains("4761739001010010"))
        }
    }
}

/// The ``CryptoError`` `body` throws, if any.
func catchError(_ body: () throws -> some Any) -> CryptoError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? CryptoError
    }
}
