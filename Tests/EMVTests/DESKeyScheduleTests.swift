@testable import EMV
import Testing

@Suite struct DESKeyScheduleTests {
    @Test func partsAreSingleDESUnderEachKeyPart() throws {
        let k1: UInt64 = 0x0123_4567_89AB_CDEF
        let k2: UInt64 = 0xFEDC_BA98_7654_3210
        let k3: UInt64 = 0x89AB_CDEF_0123_4567
        let triple = TDESKey(k1: k1, k2: k2, k3: k3)
        let double = TDESKey(k1: k1, k2: k2)
        let block: UInt64 = 0x4E6F_7720_6973_2074
        #expect(triple.k1.encrypt(block: block) == TDESKey(k1: k1).encrypt(block: block))
        #expect(triple.k2.encrypt(block: block) == TDESKey(k1: k2).encrypt(block: block))
        #expect(triple.k3.encrypt(block: block) == TDESKey(k1: k3).encrypt(block: block))
        #expect(double.k3.encrypt(block: block) == TDESKey(k1: k1).encrypt(block: block))
        #expect(TDESKey(k1: k2).k2.encrypt(block: block) == TDESKey(k1: k2).encrypt(block: block))
        #expect(DESKeySchedule(key: k1).encrypt(block: block) == 0x3FA4_0E8A_984D_4815)  // FIPS 81
        #expect(DESKeySchedule(key: k1).decrypt(block: 0x3FA4_0E8A_984D_4815) == block)
    }

    @Test func retailMACFromParts() throws {
        // Algorithm 3 written out with the building block, against the library function.
        let key = TDESKey(k1: 0x0123_4567_89AB_CDEF, k2: 0xFEDC_BA98_7654_3210)
        let blocks: [UInt64] = [0x1234_5678_90AB_CDEF, 0x8000_0000_0000_0000]
        var chain: UInt64 = 0
        for block in blocks { chain = key.k1.encrypt(block: chain ^ block) }
        let mac = key.k1.encrypt(block: key.k2.decrypt(block: chain))
        let expected = try ISO9797.mac(
            algorithm: .algorithm3, key: key, data: [0x12, 0x34, 0x56, 0x78, 0x90, 0xAB, 0xCD, 0xEF], padding: .method2)
        #expect(BigEndianBlock.bytes(mac) == expected)
    }

    @Test func scheduleByKeyBytesEqualsTheRoundByRoundOne() {
        // The fast schedule XORs precomputed rows; FIPS 46 defines it round by round. Parity bits must not matter.
        var generator = SystemRandomNumberGenerator()
        let tables = DESTables.shared
        let words = DESEngine.scheduleWords
        let fast = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: words)
        let reference = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: words)
        defer {
            fast.deallocate()
            reference.deallocate()
        }
        for key in [0, UInt64.max, 0x0101_0101_0101_0101] + (0..<2000).map({ _ in generator.next() as UInt64 }) {
            DESEngine.schedule(key, into: fast.baseAddress!, tables)
            DESEngine.roundSchedule(key, into: reference.baseAddress!, tables)
            #expect(Array(fast) == Array(reference))
            DESEngine.schedule(key ^ 0x0101_0101_0101_0101, into: fast.baseAddress!, tables)
            #expect(Array(fast) == Array(reference))
        }
    }
}
