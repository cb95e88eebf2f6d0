import EMV
import Testing

@Suite struct MACTests {
    @Test func docExamples() throws {
        let data = [UInt8](hex: "1234567890ABCDEF") ?? []
        let key1 = try TDESKey([UInt8](hex: "0123456789ABCDEFFEDCBA9876543210") ?? [])
        let key2 = try TDESKey([UInt8](hex: "FEDCBA98765432100123456789ABCDEF") ?? [])
        #expect(try ISO9797.mac(algorithm: .algorithm1, key: key1, data: data, padding: .method2).hexString == "925B1737EF681AD3")
        #expect(try ISO9797.retailMAC(key1: key1, key2: key2, data: data, padding: .method2).hexString == "644AA5C915DBDAF8")
    }
}
