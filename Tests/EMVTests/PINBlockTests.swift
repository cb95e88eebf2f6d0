import EMV
import Testing

@Suite struct PINBlockTests {
    @Test func psecDocExamples() throws {
        #expect(try PINBlock.encodeISO0(pin: "1234", pan: "5544332211009966").hexString == "041277CDDEEFF669")
        #expect(try PINBlock.decodeISO0([UInt8](hex: "041277CDDEEFF669") ?? [], pan: "5544332211009966") == "1234")
        #expect(try PINBlock.decodeISO3([UInt8](hex: "341277EEEFCCB43C") ?? [], pan: "5544332211009966") == "1234")
        #expect(try PINBlock.encodeISO4PANField(pan: "112233445566778899").hexString == "61122334455667788990000000000000")
        let key = [UInt8](hex: "00112233445566778899AABBCCDDEEFF") ?? []
        #expect(
            try PINBlock.decipherISO4(
                [UInt8](hex: "E4BE5B623AF7E006AC319E5B93544564") ?? [], pan: "1234567890123456", key: key) == "1234")
        let block = try PINBlock.encipherISO4(pin: "1234", pan: "1234567890123456", key: key)
        #expect(try PINBlock.decipherISO4(block, pan: "1234567890123456", key: key) == "1234")
    }
}
