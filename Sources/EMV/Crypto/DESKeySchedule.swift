/// Single DES under one part (K1, K2 or K3) of a ``TDESKey``: the building block of the retail MAC and of
/// other EMV functions that mix single DES and TDES.
///
/// It shares the key's precomputed schedules, so making one costs nothing.
struct DESKeySchedule: Sendable {
    let subkeys: DESSubkeys
    /// Word offset of this part's schedule in `subkeys`.
    let offset: Int

    /// A standalone single DES key schedule for an 8-byte key given as a big-endian integer.
    init(key: UInt64) {
        self.init(part: 0, of: TDESKey(k1: key))
    }

    /// Part `part` (0 for K1, 1 for K2, 2 for K3) of `key`; K3 of a double length key is K1, and every part
    /// of a single DES key is K1.
    init(part: Int, of key: TDESKey) {
        subkeys = key.subkeys
        switch (part, key.keyLength) {
        case (_, 8): offset = 0
        case (1, _): offset = DESEngine.scheduleWords
        case (2, _): offset = key.k3Offset
        default: offset = 0
        }
    }

    /// Encrypts one block with single DES.
    func encrypt(block: UInt64) -> UInt64 {
        subkeys.withWords { words in
            DESEngine.des(block, UnsafePointer(words + offset), DESTables.shared, encrypt: true)
        }
    }

    /// Decrypts one block with single DES.
    func decrypt(block: UInt64) -> UInt64 {
        subkeys.withWords { words in
            DESEngine.des(block, UnsafePointer(words + offset), DESTables.shared, encrypt: false)
        }
    }
}

extension TDESKey {
    /// Single DES under K1.
    var k1: DESKeySchedule { DESKeySchedule(part: 0, of: self) }
    /// Single DES under K2 (K1 for a single DES key).
    var k2: DESKeySchedule { DESKeySchedule(part: 1, of: self) }
    /// Single DES under K3 (K1 for single and double length keys).
    var k3: DESKeySchedule { DESKeySchedule(part: 2, of: self) }
}
