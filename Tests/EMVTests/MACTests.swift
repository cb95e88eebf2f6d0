@testable import EMV
import Testing

private func hex(_ text: String) throws -> [UInt8] { try CryptoVectors.bytes(text) }

private func padding(_ method: Int) -> ISO9797.Padding {
    switch method {
    case 1: .method1
    case 2: .method2
    default: .method3
    }
}

@Suite struct MACTests {
    let vectors: CryptoVectors.MACFile

    init() throws {
        vectors = try VectorFiles.load("MAC", as: CryptoVectors.MACFile.self)
    }

    @Test func docstringExamples() throws {
        let data = try hex("1234567890ABCDEF")
        let key1 = try TDESKey(hex("0123456789ABCDEFFEDCBA9876543210"))
        let key2 = try TDESKey(hex("FEDCBA98765432100123456789ABCDEF"))
        // psec.mac.generate_cbc_mac and pyemv.mac.mac_iso9797_3 / psec.mac.generate_retail_mac examples.
        let cbc = try ISO9797.mac(algorithm: .algorithm1, key: key1, data: data, padding: .method2)
        #expect(cbc.hexString == "925B1737EF681AD3")
        let retail = try ISO9797.retailMAC(key1: key1, key2: key2, data: data, padding: .method2)
        #expect(retail.hexString == "644AA5C915DBDAF8")
    }

    @Test func cbcMACAgainstPsec() throws {
        let cases = vectors.cases.filter { $0.function == "psec.mac.generate_cbc_mac" }
        #expect(cases.count >= 90)
        for vector in cases {
            let key = try TDESKey(hex(vector.key ?? ""))
            let mac = try ISO9797.mac(
                algorithm: .algorithm1, key: key, data: hex(vector.data), padding: padding(vector.padding),
                length: vector.length)
            #expect(mac.hexString == vector.mac, "data \(vector.data) padding \(vector.padding)")
        }
    }

    @Test func aesCBCMACAgainstPsec() throws {
        let cases = vectors.cases.filter { $0.function == "psec.mac.generate_cbc_mac/AES" }
        #expect(cases.count >= 90)
        for vector in cases {
            let mac = try ISO9797.aesCBCMAC(
                key: hex(vector.key ?? ""), data: hex(vector.data), padding: padding(vector.padding),
                length: vector.length)
            #expect(mac.hexString == vector.mac, "data \(vector.data) padding \(vector.padding)")
        }
    }

    @Test func retailMACAgainstPyemvAndPsec() throws {
        let cases = vectors.cases.filter { $0.key1 != nil }
        #expect(cases.count >= 100)
        for vector in cases {
            let key1 = try hex(vector.key1 ?? "")
            let key2 = try hex(vector.key2 ?? "")
            let data = try hex(vector.data)
            let mac = try ISO9797.retailMAC(
                key1: TDESKey(key1), key2: TDESKey(key2), data: data, padding: padding(vector.padding),
                length: vector.length)
            #expect(mac.hexString == vector.mac, "data \(vector.data) padding \(vector.padding)")
            if key1.count == 8 && key2.count == 8 {
                // The EMV form: one double length key K1 ‖ K2.
                let combined = try ISO9797.mac(
                    algorithm: .algorithm3, key: TDESKey(key1 + key2), data: data, padding: padding(vector.padding),
                    length: vector.length)
                #expect(combined.hexString == vector.mac, "data \(vector.data) padding \(vector.padding)")
            }
        }
    }

    @Test func paddingAgainstPsec() throws {
        #expect(vectors.padding.count == 36)
        for vector in vectors.padding {
            let padded = try ISO9797.pad(hex(vector.data), padding(vector.padding), blockSize: vector.block_size)
            #expect(padded.hexString == vector.padded, "data \(vector.data) method \(vector.padding)")
        }
    }

    @Test func paddingEdges() {
        #expect(ISO9797.pad([], .method1) == [UInt8](repeating: 0, count: 8))
        #expect(ISO9797.pad([1, 2, 3, 4, 5, 6, 7, 8], .method1) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(
            ISO9797.pad([1, 2, 3, 4, 5, 6, 7, 8], .method2) == [1, 2, 3, 4, 5, 6, 7, 8, 0x80, 0, 0, 0, 0, 0, 0, 0])
        #expect(ISO9797.pad([], .method2) == [0x80, 0, 0, 0, 0, 0, 0, 0])
        #expect(ISO9797.pad([0xAB], .method3) == [0, 0, 0, 0, 0, 0, 0, 8, 0xAB, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test(arguments: [-1, 0, 9, 16])
    func rejectsMACLength(_ length: Int) throws {
        let key = try TDESKey(hex("0123456789ABCDEFFEDCBA9876543210"))
        for algorithm in ISO9797.Algorithm.allCases {
            #expect(throws: CryptoError.invalidMACLength) {
                try ISO9797.mac(algorithm: algorithm, key: key, data: [1], padding: .method2, length: length)
            }
        }
        #expect(throws: CryptoError.invalidMACLength) {
            try ISO9797.retailMAC(key1: key, key2: key, data: [1], padding: .method1, length: length)
        }
    }

    @Test func rejectsAESMACLength() throws {
        let key = [UInt8](repeating: 1, count: 16)
        #expect(throws: CryptoError.invalidMACLength) {
            try ISO9797.aesCBCMAC(key: key, data: [1], padding: .method1, length: 17)
        }
        #expect(try ISO9797.aesCBCMAC(key: key, data: [1], padding: .method1, length: 16).count == 16)
    }

    @Test(arguments: [8, 24])
    func algorithm3NeedsDoubleLengthKey(_ length: Int) throws {
        let key = try TDESKey([UInt8](repeating: 1, count: length))
        #expect(throws: CryptoError.invalidKeyLength) {
            try ISO9797.mac(algorithm: .algorithm3, key: key, data: [1], padding: .method2)
        }
    }

    @Test(arguments: [0, 8, 15, 17, 48, 64])
    func rejectsAESKeyLength(_ length: Int) {
        #expect(throws: CryptoError.invalidKeyLength) {
            try ISO9797.aesCBCMAC(key: [UInt8](repeating: 1, count: length), data: [1], padding: .method1)
        }
    }

    /// The MAC chains read the padded data block by block (`forEachBlock`) instead of building the padded copy
    /// (`pad`); the two write the padding methods each their own way, so they are held to the same blocks here.
    @Test(arguments: 1...3)
    func streamedPaddingMatchesThePaddedCopy(_ method: Int) {
        for length in 0...40 {
            let data = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            var streamed: [UInt8] = []
            ISO9797.forEachBlock(of: data, padding: padding(method)) { streamed += BigEndianBlock.bytes($0) }
            #expect(streamed == ISO9797.pad(data, padding(method), blockSize: 8), "length \(length)")
        }
    }
}
