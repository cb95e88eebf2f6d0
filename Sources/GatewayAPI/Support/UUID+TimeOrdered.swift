import Foundation

extension UUID {
    /// A version 7 UUID (RFC 9562 §5.7): 48 bits of Unix milliseconds, the version, then 74 random bits.
    ///
    /// Readers name their reads with these, and the SDK its idempotency keys: the gateway keys a table by each, and
    /// keys that grow with time append to the same few B-tree pages instead of dirtying a random one per insert
    /// (each dirty page is written to the WAL at commit and again at checkpoint). 74 random bits keep them unguessable;
    /// the time they show is the request's own.
    public static func timeOrdered(now: Date = Date()) -> UUID {
        var generator = SystemRandomNumberGenerator()
        let millis = UInt64(max(0, now.timeIntervalSince1970 * 1000)) & 0xFFFF_FFFF_FFFF
        let high = millis << 16 | 0x7000 | generator.next() & 0x0FFF  // unix_ts_ms, ver, rand_a
        let low = 0x8000_0000_0000_0000 | generator.next() & 0x3FFF_FFFF_FFFF_FFFF  // var, rand_b
        func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (56 - 8 * index)) }
        return UUID(
            uuid: (
                byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5),
                byte(high, 6), byte(high, 7), byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3),
                byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
            ))
    }
}
