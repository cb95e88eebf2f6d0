import EMV
import Testing

@Suite struct CVC3Tests {
    // MARK: pyemv 1.5.0 vectors

    @Test(arguments: PyEMVVectors.cases("pyemv-cvv", op: "cvv.generate_cvc3"))
    func matchesPyEMV(_ vector: PyEMVCase) throws {
        try vector.check {
            String(
                try CVC3.generate(
                    iccKey: vector.bytes("icc_cvc3"),
                    trackTemplate: vector.bytes("track_template"),
                    atc: vector.bytes("atc"),
                    unpredictableNumber: vector.bytes("un")
                ))
        }
    }

    // MARK: pyemv's documented example (cvv.py) and HSM-checked tests (tests/test_cvv_hsm.py)

    static func iccKey() throws -> [UInt8] {
        try KeyDerivation.iccMasterKeyOptionA(
            issuerMasterKey: hexBytes("01234567899876543210012345678998"), pan: "5123456789012345", psn: "00"
        )
    }

    @Test func track2Example() throws {
        let key = try Self.iccKey()
        #expect(try kcv(key) == "BB8F")
        let track2 = hexBytes("5123456789012345D35121010000000000000F")
        let cvc3 = try CVC3.generate(
            iccKey: key, trackTemplate: track2, atc: hexBytes("005E"), unpredictableNumber: hexBytes("00000899"))
        #expect(cvc3 == 29488)
        // The card's way: IVCVC3 at personalisation, then the CVC3 per transaction.
        let iv = try CVC3.initializationVector(iccKey: key, trackTemplate: track2)
        #expect(
            try CVC3.generate(
                iccKey: key, initializationVector: iv, atc: hexBytes("005E"),
                unpredictableNumber: hexBytes("00000899")) == 29488)
        // The track shows the last digits; the HSM test checks three.
        for digits in ["488", "29488", "8", "9488"] {
            #expect(
                try CVC3.verify(
                    digits, iccKey: key, trackTemplate: track2, atc: hexBytes("005E"),
                    unpredictableNumber: hexBytes("00000899")))
        }
        for digits in ["489", "", "129488", "48a", "٤٨٨"] {
            #expect(
                try !CVC3.verify(
                    digits, iccKey: key, trackTemplate: track2, atc: hexBytes("005E"),
                    unpredictableNumber: hexBytes("00000899")))
        }
    }

    @Test func track1Example() throws {
        let track1 = Array("B5123456789012345^KENOBI/OBIWAN^3512101000000000000000000000000".utf8)
        let cvc3 = try CVC3.generate(
            iccKey: Self.iccKey(), trackTemplate: track1, atc: hexBytes("005E"),
            unpredictableNumber: hexBytes("00000899"))
        #expect(String(cvc3).hasSuffix("419"))
    }

    // MARK: Errors

    @Test func typedErrors() throws {
        let key = try Self.iccKey()
        #expect(throws: CryptoError.invalidKeyLength) {
            try CVC3.generate(
                iccKey: Array(key.prefix(8)), trackTemplate: [], atc: hexBytes("0001"),
                unpredictableNumber: hexBytes("00000001"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try CVC3.generate(
                iccKey: key, trackTemplate: [], atc: hexBytes("01"), unpredictableNumber: hexBytes("00000001"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try CVC3.generate(
                iccKey: key, trackTemplate: [], atc: hexBytes("0001"), unpredictableNumber: hexBytes("000001"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try CVC3.generate(
                iccKey: key, initializationVector: hexBytes("01"), atc: hexBytes("0001"),
                unpredictableNumber: hexBytes("00000001"))
        }
        #expect(throws: CryptoError.invalidKeyLength) {
            try CVC3.initializationVector(iccKey: [], trackTemplate: [])
        }
    }
}
