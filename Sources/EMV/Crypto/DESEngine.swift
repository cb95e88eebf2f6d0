/// The DES block function and key schedule over ``DESTables``; no allocation, no bounds checks.
///
/// A key schedule is 32 words: for each of the 16 rounds, the subkey's six-bit groups for S-boxes 8, 6, 4, 2
/// and then for S-boxes 7, 5, 3, 1, each group in its own byte (see ``DESTables``).
@usableFromInline
enum DESEngine {
    /// Words in one DES key schedule.
    @usableFromInline static let scheduleWords = 32

    @inline(__always) @usableFromInline
    static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { x &<< n | x &>> (32 &- n) }

    /// A 64-bit permutation given as 8 byte-indexed tables (IP, FP, PC-1).
    ///
    /// The entries of different input bytes have no output bit in common, so they combine with `|`, `^` or
    /// `&+` alike; mixing the three keeps the combination a tree (see ``halfRound(_:_:_:_:_:)``).
    @inline(__always) @usableFromInline
    static func permute(_ x: UInt64, _ table: UnsafePointer<UInt64>) -> UInt64 {
        let a =
            table[Int(truncatingIfNeeded: x &>> 56)]
            | table[256 | Int(truncatingIfNeeded: x &>> 48 & 0xFF)]
        let b =
            table[512 | Int(truncatingIfNeeded: x &>> 40 & 0xFF)]
            | table[768 | Int(truncatingIfNeeded: x &>> 32 & 0xFF)]
        let c =
            table[1024 | Int(truncatingIfNeeded: x &>> 24 & 0xFF)]
            | table[1280 | Int(truncatingIfNeeded: x &>> 16 & 0xFF)]
        let d =
            table[1536 | Int(truncatingIfNeeded: x &>> 8 & 0xFF)]
            | table[1792 | Int(truncatingIfNeeded: x & 0xFF)]
        return (a ^ b) &+ (c ^ d)
    }

    /// One half round: `l` ⊕ f(`r`, K) for rotated halves and the round's two subkey words.
    ///
    /// The eight S-box entries have disjoint bits (P is a permutation), so `|`, `^` and `&+` all combine them.
    /// Written with one operator, LLVM rebuilds any tree into a chain of seven dependent XORs after the loads;
    /// mixing operators it cannot reassociate across keeps a tree. The four entries indexed by `r` ⊕ k0 are
    /// ready a cycle before those behind the rotation, so they meet `l` first and the late four join last: this
    /// is the critical path of every round.
    ///
    /// Each group is looked up by its whole byte, the two bits above its six included (``DESTables/sp`` repeats
    /// every entry four times): a byte comes out of a register in one instruction (`movzbl %ah`, or a shift for
    /// the top one) where masking six bits takes two.
    @inline(__always) @usableFromInline
    static func halfRound(
        _ l: UInt32, _ r: UInt32, _ k0: UInt32, _ k1: UInt32, _ sp: UnsafePointer<UInt32>
    ) -> UInt32 {
        let t = r ^ k0
        let u = rotl(r, 28) ^ k1
        let early =
            (sp[1792 | Int(truncatingIfNeeded: t & 0xFF)] | sp[1280 | Int(truncatingIfNeeded: t &>> 8 & 0xFF)])
            &+ (sp[768 | Int(truncatingIfNeeded: t &>> 16 & 0xFF)] | sp[256 | Int(truncatingIfNeeded: t &>> 24)])
        let late =
            (sp[1536 | Int(truncatingIfNeeded: u & 0xFF)] | sp[1024 | Int(truncatingIfNeeded: u &>> 8 & 0xFF)])
            &+ (sp[512 | Int(truncatingIfNeeded: u &>> 16 & 0xFF)] | sp[Int(truncatingIfNeeded: u &>> 24)])
        return (l ^ early) ^ late
    }

    /// Sixteen encryption rounds on IP'd, rotated halves; leaves the pre-output (R16, L16) in (l, r), which is
    /// also the IP'd input of a following DES stage, so TDES needs IP and FP only once.
    @inline(__always) @usableFromInline
    static func encryptRounds(
        _ l: inout UInt32, _ r: inout UInt32, _ k: UnsafePointer<UInt32>, _ sp: UnsafePointer<UInt32>
    ) {
        rounds(&l, &r, k, sp, decrypt: false)
    }

    /// Sixteen decryption rounds (subkeys in reverse order); same conventions as ``encryptRounds``.
    @inline(__always) @usableFromInline
    static func decryptRounds(
        _ l: inout UInt32, _ r: inout UInt32, _ k: UnsafePointer<UInt32>, _ sp: UnsafePointer<UInt32>
    ) {
        rounds(&l, &r, k, sp, decrypt: true)
    }

    /// The sixteen rounds, two per iteration; `decrypt` is a constant at every call site, so it folds away.
    @inline(__always) @usableFromInline
    static func rounds(
        _ l: inout UInt32, _ r: inout UInt32, _ k: UnsafePointer<UInt32>, _ sp: UnsafePointer<UInt32>,
        decrypt: Bool
    ) {
        var a = l
        var b = r
        // Each round uses a pair of words; decryption walks the pairs from the last one back.
        var i = decrypt ? 28 : 0
        let step = decrypt ? -4 : 4
        let first = decrypt ? 2 : 0
        let second = decrypt ? 0 : 2
        for _ in 0..<8 {
            a = halfRound(a, b, k[i &+ first], k[i &+ first &+ 1], sp)
            b = halfRound(b, a, k[i &+ second], k[i &+ second &+ 1], sp)
            i &+= step
        }
        l = b
        r = a
    }

    /// ``rounds(_:_:_:_:decrypt:)`` on two blocks under the same schedule, round by round in step.
    ///
    /// One block's rounds form a chain of dependent table loads; running two independent chains side by side
    /// lets the CPU overlap them, so a pair costs far less than two blocks one after the other.
    @inline(__always) @usableFromInline
    static func rounds2(
        _ l: inout UInt32, _ r: inout UInt32, _ l2: inout UInt32, _ r2: inout UInt32,
        _ k: UnsafePointer<UInt32>, _ sp: UnsafePointer<UInt32>, decrypt: Bool
    ) {
        var a = l
        var b = r
        var c = l2
        var d = r2
        var i = decrypt ? 28 : 0
        let step = decrypt ? -4 : 4
        let first = decrypt ? 2 : 0
        let second = decrypt ? 0 : 2
        for _ in 0..<8 {
            let k0 = k[i &+ first], k1 = k[i &+ first &+ 1]
            a = halfRound(a, b, k0, k1, sp)
            c = halfRound(c, d, k0, k1, sp)
            let k2 = k[i &+ second], k3 = k[i &+ second &+ 1]
            b = halfRound(b, a, k2, k3, sp)
            d = halfRound(d, c, k2, k3, sp)
            i &+= step
        }
        l = b
        r = a
        l2 = d
        r2 = c
    }

    /// Initial permutation into rotated halves.
    @inline(__always) @usableFromInline
    static func initialPermutation(_ block: UInt64, _ tables: DESTables) -> (UInt32, UInt32) {
        let x = permute(block, tables.ip)
        return (UInt32(truncatingIfNeeded: x &>> 32), UInt32(truncatingIfNeeded: x))
    }

    /// Final permutation from rotated pre-output halves.
    @inline(__always) @usableFromInline
    static func finalPermutation(_ l: UInt32, _ r: UInt32, _ tables: DESTables) -> UInt64 {
        permute(UInt64(l) &<< 32 | UInt64(r), tables.fp)
    }

    /// One single DES operation under the schedule at `schedule`.
    @inline(__always) @usableFromInline
    static func des(
        _ block: UInt64, _ schedule: UnsafePointer<UInt32>, _ tables: DESTables, encrypt: Bool
    ) -> UInt64 {
        let sp = UnsafePointer(tables.sp)
        var (l, r) = initialPermutation(block, tables)
        if encrypt {
            encryptRounds(&l, &r, schedule, sp)
        } else {
            decryptRounds(&l, &r, schedule, sp)
        }
        return finalPermutation(l, r, tables)
    }

    /// Expands a 64-bit DES key (parity bits ignored) into ``scheduleWords`` words at `out`: the XOR of one
    /// precomputed schedule per key byte (``DESTables/keyRows``), eight 128-byte rows, instead of sixteen rounds
    /// of eight PC-2 lookups (a key costs about a third as much; every derived key is a new schedule).
    @inline(__always) @usableFromInline
    static func schedule(_ key: UInt64, into out: UnsafeMutablePointer<UInt32>, _ tables: DESTables) {
        // The eight rows, as 64-bit words (the schedule's 32 words are 16 of them; LLVM vectorises the loop).
        let rows = UnsafeRawPointer(tables.keyRows)
        let rowBytes = MemoryLayout<UInt32>.stride * scheduleWords
        @inline(__always) func row(_ byte: Int) -> UnsafeRawPointer {
            let value = Int(truncatingIfNeeded: key &>> (57 &- 8 &* byte)) & 0x7F
            return rows + (byte &* 128 &+ value) &* rowBytes
        }
        let r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3), r4 = row(4), r5 = row(5), r6 = row(6), r7 = row(7)
        let output = UnsafeMutableRawPointer(out)
        for offset in stride(from: 0, to: rowBytes, by: 8) {
            @inline(__always) func word(_ row: UnsafeRawPointer) -> UInt64 {
                row.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            }
            let value = (word(r0) ^ word(r1)) ^ (word(r2) ^ word(r3)) ^ ((word(r4) ^ word(r5)) ^ (word(r6) ^ word(r7)))
            output.storeBytes(of: value, toByteOffset: offset, as: UInt64.self)
        }
    }

    /// The key schedule as FIPS 46 defines it, round by round (PC-1, then per round the shifts and PC-2): what
    /// ``DESTables/keyRows`` is built from.
    static func roundSchedule(_ key: UInt64, into out: UnsafeMutablePointer<UInt32>, _ tables: DESTables) {
        let cd = permute(key, tables.pc1)
        var c = UInt32(truncatingIfNeeded: cd &>> 28)
        var d = UInt32(truncatingIfNeeded: cd) & 0x0FFF_FFFF
        let pc2 = tables.pc2
        for round in 0..<16 {
            // Rounds 1, 2, 9 and 16 rotate by one bit, the others by two.
            let s: UInt32 = 0x8103 &>> round & 1 == 1 ? 1 : 2
            c = (c &<< s | c &>> (28 &- s)) & 0x0FFF_FFFF
            d = (d &<< s | d &>> (28 &- s)) & 0x0FFF_FFFF
            let k =
                pc2[Int(truncatingIfNeeded: c &>> 21)]
                ^ pc2[128 | Int(truncatingIfNeeded: c &>> 14 & 0x7F)]
                ^ pc2[256 | Int(truncatingIfNeeded: c &>> 7 & 0x7F)]
                ^ pc2[384 | Int(truncatingIfNeeded: c & 0x7F)]
                ^ pc2[512 | Int(truncatingIfNeeded: d &>> 21)]
                ^ pc2[640 | Int(truncatingIfNeeded: d &>> 14 & 0x7F)]
                ^ pc2[768 | Int(truncatingIfNeeded: d &>> 7 & 0x7F)]
                ^ pc2[896 | Int(truncatingIfNeeded: d & 0x7F)]
            out[2 &* round] = UInt32(truncatingIfNeeded: k &>> 32)
            out[2 &* round &+ 1] = UInt32(truncatingIfNeeded: k)
        }
    }
}
