/// A single, double or triple length DES key with its key schedules computed once.
///
/// Encryption is E(K3, D(K2, E(K1, x))) (ANSI X9.52 / ISO 18033-3 TDEA, keying option 1 for 24 bytes,
/// option 2 with K3 = K1 for 16 bytes); an 8-byte key is plain single DES, the same as K1 = K2 = K3.
/// Parity bits are ignored, as by OpenSSL and pyca/cryptography. Building a key costs about as much as
/// encrypting one block, so it is fine to make one per derived session key.
///
/// Blocks are `UInt64` values holding the 8 block bytes in big-endian order (the first byte is the most
/// significant), so `0x0123_4567_89AB_CDEF` is the block `01 23 45 67 89 AB CD EF`.
public struct TDESKey: Sendable {
    /// The key length in bytes: 8, 16 or 24.
    public let keyLength: Int

    @usableFromInline let subkeys: DESSubkeys
    /// Word offset of K3's schedule: 64 for a triple length key, otherwise 0 (K3 = K1).
    @usableFromInline let k3Offset: Int

    /// Creates a key from 8 (single DES), 16 (double length, K1 K2 K1) or 24 bytes (triple length).
    public init(_ key: [UInt8]) throws(CryptoError) {
        try self.init(key[...])
    }

    /// Creates a key from 8, 16 or 24 bytes of a larger buffer.
    public init(_ key: ArraySlice<UInt8>) throws(CryptoError) {
        let parts = try Self.parts(of: key)
        self.init(parts: parts.count, parts.p1, parts.p2, parts.p3)
    }

    /// Creates a single DES key from its 8 bytes as a big-endian integer.
    public init(k1: UInt64) {
        self.init(parts: 1, k1, 0, 0)
    }

    /// Creates a double length key (K1 K2 K1) from its two halves as big-endian integers.
    public init(k1: UInt64, k2: UInt64) {
        self.init(parts: 2, k1, k2, 0)
    }

    /// Creates a triple length key from its three parts as big-endian integers.
    public init(k1: UInt64, k2: UInt64, k3: UInt64) {
        self.init(parts: 3, k1, k2, k3)
    }

    /// Builds the schedules of the first `count` parts (no intermediate array: keys are made per transaction).
    private init(parts count: Int, _ p1: UInt64, _ p2: UInt64, _ p3: UInt64) {
        keyLength = count * 8
        k3Offset = Self.k3Offset(parts: count)
        subkeys = DESSubkeys(schedules: count)
        subkeys.withWords { words in Self.schedule(count, p1, p2, p3, into: words) }
    }

    /// Word offset of K3's schedule for a key of `parts` 8-byte parts: its own after K1 and K2 for a triple
    /// length key, otherwise K1's (K3 = K1).
    @inlinable
    static func k3Offset(parts: Int) -> Int { parts == 3 ? 2 * DESEngine.scheduleWords : 0 }

    /// Runs `body` with the cipher of an 8, 16 or 24-byte key whose schedules live on the stack, for a key used
    /// once where it is made (a derivation's issuer key): a ``TDESKey`` keeps them in an allocation of their own,
    /// which cost more than the derivation's two blocks.
    static func withTemporaryCipher<Result>(
        _ key: [UInt8], _ body: (RawCipher) -> Result
    ) throws(CryptoError) -> Result {
        let parts = try parts(of: key[...])
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 3 * DESEngine.scheduleWords) { buffer in
            let words = buffer.baseAddress!
            schedule(parts.count, parts.p1, parts.p2, parts.p3, into: words)
            return body(RawCipher(parts: parts.count, words: UnsafePointer(words)))
        }
    }

    /// A key's 8-byte parts as big-endian integers (unused ones 0) and how many there are.
    /// - Throws: ``CryptoError/invalidKeyLength`` unless the key has 8, 16 or 24 bytes.
    private static func parts(
        of key: ArraySlice<UInt8>
    ) throws(CryptoError) -> (count: Int, p1: UInt64, p2: UInt64, p3: UInt64) {
        guard key.count == 8 || key.count == 16 || key.count == 24 else {
            throw CryptoError(.invalidKeyLength, "a DES key has 8, 16 or 24 bytes, not \(key.count)")
        }
        return key.withUnsafeBytes { raw in
            let count = raw.count / 8
            return (
                count, BigEndianBlock.load(raw, at: 0),
                count > 1 ? BigEndianBlock.load(raw, at: 8) : 0,
                count > 2 ? BigEndianBlock.load(raw, at: 16) : 0
            )
        }
    }

    /// Writes the schedules of the first `count` parts to `words`.
    private static func schedule(
        _ count: Int, _ p1: UInt64, _ p2: UInt64, _ p3: UInt64, into words: UnsafeMutablePointer<UInt32>
    ) {
        let tables = DESTables.shared
        DESEngine.schedule(p1, into: words, tables)
        if count > 1 { DESEngine.schedule(p2, into: words + DESEngine.scheduleWords, tables) }
        if count > 2 { DESEngine.schedule(p3, into: words + 2 * DESEngine.scheduleWords, tables) }
    }

    /// Encrypts one block.
    @inlinable
    public func encrypt(block: UInt64) -> UInt64 {
        withCipher { $0.encrypt(block) }
    }

    /// Decrypts one block.
    @inlinable
    public func decrypt(block: UInt64) -> UInt64 {
        withCipher { $0.decrypt(block) }
    }

    /// Encrypts two blocks, faster than one after the other (derivations encrypt their halves in pairs).
    @inlinable
    func encrypt(_ first: UInt64, _ second: UInt64) -> (UInt64, UInt64) {
        withCipher { $0.encrypt(first, second) }
    }

    /// Runs `body` with the raw cipher, so loops over many blocks look the tables and schedules up once.
    @inlinable
    func withCipher<Result, Failure: Error>(
        _ body: (RawCipher) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try subkeys.withWords { words throws(Failure) in
            try body(RawCipher(key: self, words: UnsafePointer(words)))
        }
    }

    /// The schedules and tables of a key, valid only inside ``withCipher(_:)``.
    @usableFromInline
    struct RawCipher {
        @usableFromInline let tables: DESTables
        @usableFromInline let sp: UnsafePointer<UInt32>
        @usableFromInline let k1: UnsafePointer<UInt32>
        @usableFromInline let k2: UnsafePointer<UInt32>
        @usableFromInline let k3: UnsafePointer<UInt32>
        @usableFromInline let single: Bool

        @inlinable
        init(key: TDESKey, words: UnsafePointer<UInt32>) {
            self.init(parts: key.keyLength / 8, words: words)
        }

        /// The cipher of a key of `parts` 8-byte parts whose schedules are at `words`, one after the other.
        @inlinable
        init(parts: Int, words: UnsafePointer<UInt32>) {
            tables = DESTables.shared
            sp = UnsafePointer(tables.sp)
            single = parts == 1
            k1 = words
            k2 = single ? words : words + DESEngine.scheduleWords
            k3 = words + TDESKey.k3Offset(parts: parts)
        }

        @inline(__always) @usableFromInline
        func encrypt(_ block: UInt64) -> UInt64 {
            var (l, r) = permutedIn(block)
            encryptPermuted(&l, &r)
            return permutedOut(l, r)
        }

        /// The block's initial permutation: the form ``encryptPermuted(_:_:)`` works on.
        ///
        /// IP is linear (IP(a ⊕ b) = IP(a) ⊕ IP(b)) and undoes FP, so a CBC chain can stay permuted from block to
        /// block: only the data blocks are permuted, off the chain's critical path, and FP runs once at the end.
        @inline(__always) @usableFromInline
        func permutedIn(_ block: UInt64) -> (UInt32, UInt32) {
            DESEngine.initialPermutation(block, tables)
        }

        /// The block whose initial permutation is (l, r).
        @inline(__always) @usableFromInline
        func permutedOut(_ l: UInt32, _ r: UInt32) -> UInt64 {
            DESEngine.finalPermutation(l, r, tables)
        }

        /// Encrypts a permuted block in place (see ``permutedIn(_:)``).
        @inline(__always) @usableFromInline
        func encryptPermuted(_ l: inout UInt32, _ r: inout UInt32) {
            DESEngine.encryptRounds(&l, &r, k1, sp)
            if !single {
                DESEngine.decryptRounds(&l, &r, k2, sp)
                DESEngine.encryptRounds(&l, &r, k3, sp)
            }
        }

        /// Single DES encryption of a permuted block under one of the key's parts.
        @inline(__always) @usableFromInline
        func desEncryptPermuted(_ l: inout UInt32, _ r: inout UInt32, _ schedule: UnsafePointer<UInt32>) {
            DESEngine.encryptRounds(&l, &r, schedule, sp)
        }

        /// Single DES decryption of a permuted block under one of the key's parts.
        @inline(__always) @usableFromInline
        func desDecryptPermuted(_ l: inout UInt32, _ r: inout UInt32, _ schedule: UnsafePointer<UInt32>) {
            DESEngine.decryptRounds(&l, &r, schedule, sp)
        }

        @inline(__always) @usableFromInline
        func decrypt(_ block: UInt64) -> UInt64 {
            var (l, r) = DESEngine.initialPermutation(block, tables)
            if !single {
                DESEngine.decryptRounds(&l, &r, k3, sp)
                DESEngine.encryptRounds(&l, &r, k2, sp)
            }
            DESEngine.decryptRounds(&l, &r, k1, sp)
            return DESEngine.finalPermutation(l, r, tables)
        }

        /// Encrypts two independent blocks at once (see ``DESEngine/rounds2``).
        @inline(__always) @usableFromInline
        func encrypt(_ first: UInt64, _ second: UInt64) -> (UInt64, UInt64) {
            var (l, r) = DESEngine.initialPermutation(first, tables)
            var (l2, r2) = DESEngine.initialPermutation(second, tables)
            DESEngine.rounds2(&l, &r, &l2, &r2, k1, sp, decrypt: false)
            if !single {
                DESEngine.rounds2(&l, &r, &l2, &r2, k2, sp, decrypt: true)
                DESEngine.rounds2(&l, &r, &l2, &r2, k3, sp, decrypt: false)
            }
            return (DESEngine.finalPermutation(l, r, tables), DESEngine.finalPermutation(l2, r2, tables))
        }

        /// Decrypts two independent blocks at once (see ``DESEngine/rounds2``).
        @inline(__always) @usableFromInline
        func decrypt(_ first: UInt64, _ second: UInt64) -> (UInt64, UInt64) {
            var (l, r) = DESEngine.initialPermutation(first, tables)
            var (l2, r2) = DESEngine.initialPermutation(second, tables)
            if !single {
                DESEngine.rounds2(&l, &r, &l2, &r2, k3, sp, decrypt: true)
                DESEngine.rounds2(&l, &r, &l2, &r2, k2, sp, decrypt: false)
            }
            DESEngine.rounds2(&l, &r, &l2, &r2, k1, sp, decrypt: true)
            return (DESEngine.finalPermutation(l, r, tables), DESEngine.finalPermutation(l2, r2, tables))
        }
    }
}
