import EMV
import Testing

@Suite struct HexTests {
    @Test func roundTrip() {
        let bytes: [UInt8] = [0x00, 0x9F, 0x02, 0xAB, 0xff]
        #expect(bytes.hexString == "009F02ABFF")
        #expect([UInt8](hex: "009f02abFF") == bytes)
    }

    @Test(arguments: ["0", "0G", "9F0", " 9F"])
    func rejectsMalformed(_ text: String) {
        #expect([UInt8](hex: text) == nil)
    }
}
