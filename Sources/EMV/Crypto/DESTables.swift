/// Lookup tables for the DES engine, built once from the FIPS 46-3 tables.
///
/// Every bit permutation of DES (IP, FP, PC-1, PC-2 and the P permutation after the S-boxes) is linear over
/// GF(2), so it equals the XOR of one table entry per input chunk. Building the tables from the standard's
/// own tables, instead of pasting thousands of constants, keeps them checkable by eye.
///
/// Representation used by the engine (the same trick as libdes and Go's crypto/des): both halves are kept
/// rotated left by one bit, so the six-bit S-box inputs of the expansion E sit in byte-aligned positions of
/// `r` and `r >>> 4`; a round subkey is stored as two words holding those six-bit groups at the same
/// positions. The rotation is folded into the IP, FP and S-box tables, so it costs nothing per block.
///
/// A struct of pointers, not a class: every DES call takes the tables, and retaining one shared object from
/// every thread made its reference count a cache line that the cores fought over.
@usableFromInline
struct DESTables: @unchecked Sendable {
    // Immutable after init (and never freed: there is one, for the process); @unchecked because raw pointers are
    // not Sendable.

    /// S-box followed by P, rotated left one bit: 8 boxes of 256 entries, the 64 repeated for the two bits above
    /// an input's six.
    @usableFromInline let sp: UnsafeMutablePointer<UInt32>
    /// IP, output as (rotl(L, 1) << 32 | rotl(R, 1)): 8 input bytes of 256 entries.
    @usableFromInline let ip: UnsafeMutablePointer<UInt64>
    /// FP on (rotl(R16, 1) << 32 | rotl(L16, 1)): 8 input bytes of 256 entries.
    @usableFromInline let fp: UnsafeMutablePointer<UInt64>
    /// PC-1, output C (28 bits) << 28 | D (28 bits): 8 input bytes of 256 entries.
    @usableFromInline let pc1: UnsafeMutablePointer<UInt64>
    /// PC-2 and regrouping into the engine's subkey words (k0 << 32 | k1): 8 seven-bit chunks of C‖D.
    @usableFromInline let pc2: UnsafeMutablePointer<UInt64>
    /// Whole key schedules by key byte: row `byte * 128 + (value >> 1)` is the ``DESEngine/scheduleWords``-word
    /// schedule of the key whose only nonzero byte is `value` at position `byte` (0 = first). The schedule is
    /// linear in the key (PC-1, the rotations and PC-2 only move bits), so a key's schedule is the XOR of its
    /// eight bytes' rows; the parity bit (each byte's lowest) is not used, hence 128 rows per byte. 128 KiB.
    @usableFromInline let keyRows: UnsafeMutablePointer<UInt32>

    /// The one instance; built on first use.
    @usableFromInline static let shared = DESTables()

    private init() {
        sp = .allocate(capacity: 8 * 256)
        ip = .allocate(capacity: 8 * 256)
        fp = .allocate(capacity: 8 * 256)
        pc1 = .allocate(capacity: 8 * 256)
        pc2 = .allocate(capacity: 8 * 128)
        keyRows = .allocate(capacity: 8 * 128 * DESEngine.scheduleWords)

        for box in 0..<8 {
            for input in 0..<64 {
                let row = (input >> 4 & 2) | (input & 1)
                let column = input >> 1 & 15
                let nibble = UInt64(Self.sBoxes[box][row * 16 + column])
                let p = UInt32(Self.permute(nibble << (28 - 4 * box), width: 32, by: Self.p))
                // Each entry four times, for any two bits above the six (see `DESEngine.halfRound`).
                for high in 0..<4 { sp[box * 256 + high << 6 + input] = DESEngine.rotl(p, 1) }
            }
        }

        let inverseIP = Self.inverse(of: Self.ip)
        Self.fill(ip, inputWidth: 64, chunkWidth: 8) { x in
            Self.rotateHalves(Self.permute(x, width: 64, by: Self.ip), by: 1)
        }
        Self.fill(fp, inputWidth: 64, chunkWidth: 8) { x in
            Self.permute(Self.rotateHalves(x, by: 31), width: 64, by: inverseIP)
        }
        Self.fill(pc1, inputWidth: 64, chunkWidth: 8) { x in
            Self.permute(x, width: 64, by: Self.pc1)
        }
        Self.fill(pc2, inputWidth: 56, chunkWidth: 7) { x in
            let k = Self.permute(x, width: 56, by: Self.pc2)
            // Six-bit group j (S-box j + 1) of the 48-bit subkey.
            func group(_ j: Int) -> UInt32 { UInt32(truncatingIfNeeded: k >> (42 - 6 * j)) & 0x3F }
            let k0 = group(7) | group(5) << 8 | group(3) << 16 | group(1) << 24
            let k1 = group(6) | group(4) << 8 | group(2) << 16 | group(0) << 24
            return UInt64(k0) << 32 | UInt64(k1)
        }
        for byte in 0..<8 {
            for value in 0..<128 {
                let key = UInt64(value << 1) << (56 - 8 * byte)
                DESEngine.roundSchedule(key, into: keyRows + (byte * 128 + value) * DESEngine.scheduleWords, self)
            }
        }
    }

    /// Fills `table` so that XOR over chunks c of `table[c * 2^chunkWidth + chunk_c(x)]` equals `f(x)`,
    /// for a function `f` that is linear over GF(2); chunk 0 holds the most significant bits.
    private static func fill(
        _ table: UnsafeMutablePointer<UInt64>, inputWidth: Int, chunkWidth: Int, _ f: (UInt64) -> UInt64
    ) {
        let entries = 1 << chunkWidth
        for chunk in 0..<(inputWidth / chunkWidth) {
            let shift = inputWidth - chunkWidth * (chunk + 1)
            for value in 0..<entries {
                table[chunk * entries + value] = f(UInt64(value) << shift)
            }
        }
    }

    /// Applies a FIPS 46 style permutation table: output bit i (1 = most significant) is input bit
    /// `table[i - 1]` (1 = most significant of `width` bits).
    private static func permute(_ x: UInt64, width: Int, by table: [Int]) -> UInt64 {
        var y: UInt64 = 0
        for source in table {
            y = y << 1 | (x >> (width - source) & 1)
        }
        return y
    }

    /// Rotates each 32-bit half of `x` left by `n` bits.
    private static func rotateHalves(_ x: UInt64, by n: UInt32) -> UInt64 {
        UInt64(DESEngine.rotl(UInt32(x >> 32), n)) << 32 | UInt64(DESEngine.rotl(UInt32(truncatingIfNeeded: x), n))
    }

    private static func inverse(of table: [Int]) -> [Int] {
        var inverse = [Int](repeating: 0, count: table.count)
        for (index, source) in table.enumerated() {
            inverse[source - 1] = index + 1
        }
        return inverse
    }

    // FIPS 46-3 tables, bit 1 is the most significant.

    private static let ip = [
        58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4,
        62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40, 32, 24, 16, 8,
        57, 49, 41, 33, 25, 17, 9, 1, 59, 51, 43, 35, 27, 19, 11, 3,
        61, 53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7,
    ]

    private static let p = [
        16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10,
        2, 8, 24, 14, 32, 27, 3, 9, 19, 13, 30, 6, 22, 11, 4, 25,
    ]

    private static let pc1 = [
        57, 49, 41, 33, 25, 17, 9, 1, 58, 50, 42, 34, 26, 18,
        10, 2, 59, 51, 43, 35, 27, 19, 11, 3, 60, 52, 44, 36,
        63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22,
        14, 6, 61, 53, 45, 37, 29, 21, 13, 5, 28, 20, 12, 4,
    ]

    private static let pc2 = [
        14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10,
        23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2,
        41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48,
        44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32,
    ]

    private static let sBoxes: [[UInt8]] = [
        [
            14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7,
            0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8,
            4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0,
            15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13,
        ],
        [
            15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10,
            3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5,
            0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15,
            13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9,
        ],
        [
            10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8,
            13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1,
            13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7,
            1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12,
        ],
        [
            7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15,
            13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9,
            10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4,
            3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14,
        ],
        [
            2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9,
            14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6,
            4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14,
            11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3,
        ],
        [
            12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11,
            10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8,
            9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6,
            4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13,
        ],
        [
            4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1,
            13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6,
            1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2,
            6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12,
        ],
        [
            13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7,
            1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2,
            7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8,
            2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11,
        ],
    ]
}
