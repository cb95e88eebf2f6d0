import EMV
import Testing

private func hex(_ text: String) throws -> [UInt8] { try CryptoVectors.bytes(text) }

@Suite struct DESTests {
    let vectors: CryptoVectors.DESFile

    init() throws {
        vectors = try VectorFiles.load("DES", as: CryptoVectors.DESFile.self)
    }

    @Test func fipsWorkedExample() throws {
        // FIPS 46 worked example (J. Orlin Grabbe, "The DES Algorithm Illustrated").
        let key = try TDESKey(hex("133457799BBCDFF1"))
        #expect(key.encrypt(block: 0x0123_4567_89AB_CDEF) == 0x85E8_1354_0F0A_B405)
        #expect(key.decrypt(block: 0x85E8_1354_0F0A_B405) == 0x0123_4567_89AB_CDEF)
    }

    @Test func publishedSingleDESVectors() throws {
        #expect(vectors.published.count >= 38)
        for vector in vectors.published + vectors.sp800_20 {
            let key = try TDESKey(hex(vector.key))
            let plain = try hex(vector.plaintext)
            let cipher = try hex(vector.ciphertext)
            #expect(try key.encryptECB(plain) == cipher, "key \(vector.key)")
            #expect(try key.decryptECB(cipher) == plain, "key \(vector.key)")
        }
    }

    @Test func singleKeyIsTripleOfTheSameKey() throws {
        for vector in vectors.published {
            let single = try TDESKey(hex(vector.key))
            let triple = try TDESKey(hex(vector.key + vector.key + vector.key))
            let double = try TDESKey(hex(vector.key + vector.key))
            let block = try CryptoVectors.bytes(vector.plaintext).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            #expect(triple.encrypt(block: block) == single.encrypt(block: block))
            #expect(double.encrypt(block: block) == single.encrypt(block: block))
            #expect(triple.decrypt(block: block) == single.decrypt(block: block))
        }
    }

    @Test func modesAgainstPublishedAndPsec() throws {
        #expect(vectors.modes.count >= 120)
        for vector in vectors.modes {
            let key = try TDESKey(hex(vector.key))
            let plain = try hex(vector.plaintext)
            let cipher = try hex(vector.ciphertext)
            if vector.mode == "CBC" {
                let iv = try hex(vector.iv)
                #expect(try key.encryptCBC(plain, iv: iv) == cipher, "key \(vector.key)")
                #expect(try key.decryptCBC(cipher, iv: iv) == plain, "key \(vector.key)")
            } else {
                #expect(try key.encryptECB(plain) == cipher, "key \(vector.key)")
                #expect(try key.decryptECB(cipher) == plain, "key \(vector.key)")
            }
        }
    }

    @Test func integerConstructorsMatchBytes() throws {
        let k1: UInt64 = 0x0123_4567_89AB_CDEF
        let k2: UInt64 = 0x2345_6789_ABCD_EF01
        let k3: UInt64 = 0x4567_89AB_CDEF_0123
        let block: UInt64 = 0x5468_6520_7175_6663  // "The qufc", NIST SP 800-67 example
        let fromBytes = try TDESKey(hex("0123456789ABCDEF23456789ABCDEF01456789ABCDEF0123"))
        #expect(TDESKey(k1: k1, k2: k2, k3: k3).encrypt(block: block) == 0xA826_FD8C_E53B_855F)
        #expect(fromBytes.encrypt(block: block) == 0xA826_FD8C_E53B_855F)
        #expect(TDESKey(k1: k1, k2: k2).encrypt(block: block) == TDESKey(k1: k1, k2: k2, k3: k1).encrypt(block: block))
        #expect(TDESKey(k1: k1).encrypt(block: block) == (try TDESKey(hex("0123456789ABCDEF"))).encrypt(block: block))
        #expect(TDESKey(k1: k1).keyLength == 8 && TDESKey(k1: k1, k2: k2).keyLength == 16 && fromBytes.keyLength == 24)
    }

    @Test func sliceConstructor() throws {
        let buffer = try hex("FFFF0123456789ABCDEFFEDCBA9876543210FF")
        let key = try TDESKey(buffer[2..<18])
        #expect(key.checkValue().hexString == "08D7B4")
    }

    @Test func roundTripsRandomData() throws {
        var generator = SeededGenerator(seed: 42)
        for length in [8, 16, 24] {
            let key = try TDESKey((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let data = (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let iv = (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(try key.decryptECB(key.encryptECB(data)) == data)
            #expect(try key.decryptCBC(key.encryptCBC(data, iv: iv), iv: iv) == data)
            for _ in 0..<100 {
                let block = generator.next()
                #expect(key.decrypt(block: key.encrypt(block: block)) == block)
            }
        }
    }

    @Test func weakKeyEncryptsToItsOwnInverse() throws {
        // 0101010101010101 is a DES weak key: encryption is an involution.
        let key = try TDESKey(hex("0101010101010101"))
        #expect(key.encrypt(block: key.encrypt(block: 0x0123_4567_89AB_CDEF)) == 0x0123_4567_89AB_CDEF)
    }

    @Test func checkValues() throws {
        for vector in vectors.kcv {
            let key = try TDESKey(hex(vector.key))
            #expect(key.checkValue(length: 8).hexString == vector.kcv)
            #expect(key.checkValue().hexString == String(vector.kcv.prefix(6)))
            #expect(key.checkValue(length: 2).hexString == String(vector.kcv.prefix(4)))
        }
        let key = try TDESKey(hex("0123456789ABCDEFFEDCBA9876543210"))
        #expect(key.checkValue(length: 0).isEmpty)
        #expect(key.checkValue(length: -1).isEmpty)
        #expect(key.checkValue(length: 20).count == 8)
    }

    @Test func parity() throws {
        for vector in vectors.parity {
            let key = try hex(vector.key)
            let adjusted = key.adjustedToOddParity()
            #expect(adjusted.hexString == vector.adjusted)
            #expect(adjusted.hasOddParity)
            #expect(key.hasOddParity == (key == adjusted))
        }
        #expect(try !hex("0000000000000000").hasOddParity)
        #expect(try hex("0101010101010101").hasOddParity)
        #expect([UInt8]().hasOddParity)
    }

    @Test func keyVariants() throws {
        for vector in vectors.variants {
            #expect(try hex(vector.key).applyingKeyVariant(vector.variant).hexString == vector.result)
        }
        let key = try hex("0123456789ABCDEF")
        #expect(throws: CryptoError.invalidKeyVariant) { try key.applyingKeyVariant(32) }
        #expect(throws: CryptoError.invalidKeyVariant) { try key.applyingKeyVariant(-1) }
        #expect(throws: CryptoError.invalidKeyLength) { try [UInt8](repeating: 1, count: 9).applyingKeyVariant(1) }
    }

    @Test(arguments: [0, 1, 7, 9, 15, 17, 23, 25, 32])
    func rejectsKeyLength(_ length: Int) {
        let key = [UInt8](repeating: 0x5A, count: length)
        #expect(throws: CryptoError.invalidKeyLength) { try TDESKey(key) }
        do {
            _ = try TDESKey(key)
        } catch {
            #expect(error.code == .invalidKeyLength)
            #expect(!error.message.contains("5A"))
            #expect(error.description.hasPrefix("CryptoError.invalidKeyLength: "))
        }
    }

    @Test(arguments: [0, 1, 7, 9, 15, 17])
    func rejectsDataLength(_ length: Int) throws {
        let key = try TDESKey(hex("0123456789ABCDEFFEDCBA9876543210"))
        let data = [UInt8](repeating: 0, count: length)
        let iv = [UInt8](repeating: 0, count: 8)
        #expect(throws: CryptoError.invalidDataLength) { try key.encryptECB(data) }
        #expect(throws: CryptoError.invalidDataLength) { try key.decryptECB(data) }
        #expect(throws: CryptoError.invalidDataLength) { try key.encryptCBC(data, iv: iv) }
        #expect(throws: CryptoError.invalidDataLength) { try key.decryptCBC(data, iv: iv) }
    }

    @Test(arguments: [0, 7, 9, 16])
    func rejectsIVLength(_ length: Int) throws {
        let key = try TDESKey(hex("0123456789ABCDEFFEDCBA9876543210"))
        let data = [UInt8](repeating: 0, count: 16)
        let iv = [UInt8](repeating: 0, count: length)
        #expect(throws: CryptoError.invalidIVLength) { try key.encryptCBC(data, iv: iv) }
        #expect(throws: CryptoError.invalidIVLength) { try key.decryptCBC(data, iv: iv) }
    }

    @Test func errorsCompareByCode() {
        let a = CryptoError(.invalidPIN, "one message")
        let b = CryptoError(.invalidPIN, "another")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != CryptoError(.invalidPAN, "one message"))
        #expect(CryptoError.Code.invalidPINBlockFill.description == "invalidPINBlockFill")
    }
}
