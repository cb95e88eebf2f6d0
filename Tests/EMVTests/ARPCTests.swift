import EMV
import Testing

@Suite struct ARPCTests {
    static let docKey = hexBytes("AAAAAAAAAAAAAAAABBBBBBBBBBBBBBBB")

    // MARK: pyemv 1.5.0 vectors

    @Test(arguments: PyEMVVectors.cases("pyemv-ac", op: "ac.generate_arpc"))
    func methodsMatchPyEMV(_ vector: PyEMVCase) throws {
        try vector.check {
            if vector.op == "ac.generate_arpc_1" {
                try ARPC.method1(
                    sessionKey: vector.bytes("sk_ac"), arqc: vector.bytes("arqc"), responseCode: vector.bytes("arpc_rc")
                ).hexString
            } else {
                try ARPC.method2(
                    sessionKey: vector.bytes("sk_ac"),
                    arqc: vector.bytes("arqc"),
                    cardStatusUpdate: vector.bytes("csu"),
                    proprietaryAuthenticationData: vector.optionalBytes("prop_auth_data")
                ).hexString
            }
        }
    }

    @Test(arguments: PyEMVVectors.cases("pyemv-cvn").filter { $0.op.hasSuffix(".generate_arpc") })
    func versionsMatchPyEMV(_ vector: PyEMVCase) throws {
        try vector.check {
            let card = try vector.card()
            let arqc = try vector.bytes("tag_9f26")
            let atc = try vector.optionalBytes("tag_9f36") ?? []
            switch card.version.arpcMethod {
            case .method1:
                return try card.generateARPC(
                    arqc: arqc,
                    atc: atc,
                    unpredictableNumber: vector.optionalBytes("tag_9f37") ?? [],
                    responseCode: vector.bytes("arpc_rc")
                ).hexString
            case .method2:
                return try card.generateARPC(
                    arqc: arqc,
                    atc: atc,
                    cardStatusUpdate: vector.bytes("csu"),
                    proprietaryAuthenticationData: vector.optionalBytes("proprietary_auth_data")
                ).hexString
            }
        }
    }

    // MARK: pyemv's documented examples (ac.py docstrings)

    @Test func docstringExamples() throws {
        let arqc = hexBytes("1234567890ABCDEF")
        #expect(
            try ARPC.method1(sessionKey: Self.docKey, arqc: arqc, responseCode: hexBytes("0000")).hexString
                == "F5E6F44147E2F1B0")
        #expect(
            try ARPC.method2(sessionKey: Self.docKey, arqc: arqc, cardStatusUpdate: hexBytes("00000000")).hexString
                == "9308BEBC")
        let moduleKey = hexBytes("29B33180E567CE38EA4CBC9D753B0E61")
        let moduleARQC = hexBytes("FA624250B008B59A")
        #expect(
            try ARPC.method1(sessionKey: moduleKey, arqc: moduleARQC, responseCode: hexBytes("0000")).hexString
                == "45D4255EEF10C920")
        #expect(
            try ARPC.method2(sessionKey: moduleKey, arqc: moduleARQC, cardStatusUpdate: hexBytes("00000000")).hexString
                == "CB56FA40")
    }

    // MARK: pyemv's HSM-checked tests

    struct HSMCase: Sendable, CustomTestStringConvertible {
        let version: CryptogramVersion
        let arqc: String
        let responseCode: String
        let arpc: String
        let keyKCV: String
        var testDescription: String { "\(version)" }
    }

    /// tests/test_cvn_hsm.py: method 1 ARPCs, under the ICC master key or a session key as each version says.
    @Test(arguments: [
        HSMCase(
            version: .visa10, arqc: "29CCA15AE665FA2E", responseCode: "3030", arpc: "28993816AFAE4AEB",
            keyKCV: "BAB0"),
        HSMCase(
            version: .interac133, arqc: "18932FECA2D84326", responseCode: "0000", arpc: "4DF171A49396C363",
            keyKCV: "2FD5"),
        HSMCase(
            version: .mastercard16, arqc: "24CCF3DEE3158C70", responseCode: "0010", arpc: "73F6BBF389A6586C",
            keyKCV: "BAB0"),
        HSMCase(
            version: .mastercard17, arqc: "EAE8A620A75648D8", responseCode: "0010", arpc: "29CF11FBDB9CA650",
            keyKCV: "BAB0"),
        HSMCase(
            version: .mastercard20, arqc: "CD29615D6452E70E", responseCode: "0010", arpc: "DFD0956606B68D64",
            keyKCV: "22C8"),
        HSMCase(
            version: .mastercard21, arqc: "C30E54BE496CF5E5", responseCode: "0010", arpc: "4F51F9CC63CE8B3C",
            keyKCV: "22C8"),
    ])
    func hsmMethod1(_ example: HSMCase) throws {
        let card = try CryptogramTests.hsmCard(example.version)
        let atc = hexBytes("001C")
        let un = hexBytes("ABCDEF12")
        #expect(try kcv(card.arpcSessionKey(atc: atc, unpredictableNumber: un)) == example.keyKCV)
        let arpc = try card.generateARPC(
            arqc: hexBytes(example.arqc), atc: atc, unpredictableNumber: un,
            responseCode: hexBytes(example.responseCode)
        )
        #expect(arpc.hexString == example.arpc)
        #expect(
            try card.verifyARPC(
                arpc, arqc: hexBytes(example.arqc), atc: atc, unpredictableNumber: un,
                responseCode: hexBytes(example.responseCode)
            ))
        #expect(
            try !card.verifyARPC(
                arpc, arqc: hexBytes(example.arqc), atc: atc, unpredictableNumber: un, responseCode: hexBytes("3035")
            ))
    }

    @Test func hsmMethod2() throws {
        // tests/test_cvn_hsm.py, Visa CVN 18.
        let card = try CryptogramTests.hsmCard(.visa18)
        let arqc = hexBytes("7A788EA6B8A3E733")
        let arpc = try card.generateARPC(arqc: arqc, atc: hexBytes("001C"), cardStatusUpdate: hexBytes("00000000"))
        #expect(arpc.hexString == "9AF514C1")
        #expect(try card.verifyARPC(arpc, arqc: arqc, atc: hexBytes("001C"), cardStatusUpdate: hexBytes("00000000")))
        #expect(try !card.verifyARPC(arpc, arqc: arqc, atc: hexBytes("001C"), cardStatusUpdate: hexBytes("00000001")))
        // tests/test_ac_hsm.py and test_kd_hsm.py: with and without proprietary authentication data.
        let masterKey = try KeyDerivation.iccMasterKeyOptionA(
            issuerMasterKey: KeyDerivationTests.issuerKey, pan: "9901234567890123", psn: "45"
        )
        let sessionKey = try SessionKey.common(iccMasterKey: masterKey, diversification: hexBytes("1234567890123456"))
        let genericARQC = hexBytes("4B46013359B7A58B")
        #expect(
            try ARPC.method2(
                sessionKey: sessionKey, arqc: genericARQC, cardStatusUpdate: hexBytes("00000000"),
                proprietaryAuthenticationData: hexBytes("1234567890ABCDEF")
            ).hexString == "4962B76C")
        #expect(
            try ARPC.method2(sessionKey: sessionKey, arqc: genericARQC, cardStatusUpdate: hexBytes("00000000"))
                .hexString == "7DFB1188")
        #expect(
            try ARPC.method1(sessionKey: masterKey, arqc: genericARQC, responseCode: hexBytes("0000")).hexString
                == "F8C9CECAABD55AD1")
        let optionB = try KeyDerivation.iccMasterKeyOptionB(
            issuerMasterKey: KeyDerivationTests.issuerKey, pan: "000000000000000005", psn: "23"
        )
        #expect(
            try ARPC.method2(
                sessionKey: SessionKey.common(iccMasterKey: optionB, atc: hexBytes("001C")),
                arqc: hexBytes("8CAD6F2489C640B1"), cardStatusUpdate: hexBytes("00000000"),
                proprietaryAuthenticationData: hexBytes("12345678")
            ).hexString == "E39F1876")
    }

    // MARK: Verification and errors

    @Test func verifyNeedsTheWholeARPC() throws {
        let arqc = hexBytes("1234567890ABCDEF")
        #expect(
            try ARPC.verifyMethod1(
                hexBytes("F5E6F44147E2F1B0"), sessionKey: Self.docKey, arqc: arqc,
                responseCode: hexBytes("0000")))
        #expect(
            try !ARPC.verifyMethod1(
                hexBytes("F5E6F441"), sessionKey: Self.docKey, arqc: arqc,
                responseCode: hexBytes("0000")))
        #expect(
            try ARPC.verifyMethod2(
                hexBytes("9308BEBC"), sessionKey: Self.docKey, arqc: arqc,
                cardStatusUpdate: hexBytes("00000000")))
        #expect(
            try !ARPC.verifyMethod2(
                hexBytes("9308BEBD"), sessionKey: Self.docKey, arqc: arqc,
                cardStatusUpdate: hexBytes("00000000")))
        #expect(
            try !ARPC.verifyMethod2(
                hexBytes("9308BE"), sessionKey: Self.docKey, arqc: arqc,
                cardStatusUpdate: hexBytes("00000000")))
    }

    @Test func typedErrors() throws {
        let arqc = hexBytes("1234567890ABCDEF")
        #expect(throws: CryptoError.invalidKeyLength) {
            try ARPC.method1(sessionKey: hexBytes("0123456789ABCDEF"), arqc: arqc, responseCode: hexBytes("0000"))
        }
        #expect(throws: CryptoError.invalidKeyLength) {
            try ARPC.method2(sessionKey: [], arqc: arqc, cardStatusUpdate: hexBytes("00000000"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try ARPC.method1(sessionKey: Self.docKey, arqc: hexBytes("1234567890ABCD"), responseCode: hexBytes("0000"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try ARPC.method1(sessionKey: Self.docKey, arqc: arqc, responseCode: hexBytes("00"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try ARPC.method2(sessionKey: Self.docKey, arqc: arqc + [0], cardStatusUpdate: hexBytes("00000000"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try ARPC.method2(sessionKey: Self.docKey, arqc: arqc, cardStatusUpdate: hexBytes("000000"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try ARPC.method2(
                sessionKey: Self.docKey, arqc: arqc, cardStatusUpdate: hexBytes("00000000"),
                proprietaryAuthenticationData: hexBytes("000102030405060708"))
        }
        // Each version uses one method; asking for the other is refused.
        #expect(throws: CryptoError.invalidParameter) {
            try CryptogramTests.hsmCard(.visa18).generateARPC(
                arqc: arqc, atc: hexBytes("001C"), responseCode: hexBytes("3030"))
        }
        #expect(throws: CryptoError.invalidParameter) {
            try CryptogramTests.hsmCard(.visa10).generateARPC(
                arqc: arqc, atc: hexBytes("001C"), cardStatusUpdate: hexBytes("00000000")
            )
        }
        // The session key's ATC is checked first, as pyemv derives the key before it looks at the ARQC.
        #expect(throws: CryptoError.invalidFieldLength) {
            try CryptogramTests.hsmCard(.mastercard20).generateARPC(arqc: arqc, atc: [], responseCode: hexBytes("0010"))
        }
    }
}
