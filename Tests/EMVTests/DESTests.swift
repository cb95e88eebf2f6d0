import EMV
import Testing

@Suite struct DESTests {
    @Test func classicSingleDES() throws {
        // FIPS 46 worked example (J. Orlin Grabbe, "The DES Algorithm Illustrated").
        let key = try TDESKey([UInt8](hex: "133457799BBCDFF1") ?? [])
        #expect(key.encrypt(block: 0x0123_4567_89AB_CDEF) == 0x85E8_1354_0F0A_B405)
        #expect(key.decrypt(block: 0x85E8_1354_0F0A_B405) == 0x0123_4567_89AB_CDEF)
    }

    @Test func doubleLength() throws {
        let key = try TDESKey([UInt8](hex: "0123456789ABCDEFFEDCBA9876543210") ?? [])
        #expect(try key.encryptECB(Array("12345678".utf8)).hexString == "41D2FFBA3CDC15FE")
        #expect(key.checkValue(length: 2).hexString == "08D7")
    }
}
