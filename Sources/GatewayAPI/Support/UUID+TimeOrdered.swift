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
        return UUID(high, low)
    }
}
