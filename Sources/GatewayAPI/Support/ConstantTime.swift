/// Byte-for-byte equality that takes the same time wherever the inputs differ: for secrets a caller sends (tokens,
/// signatures), which an early-exit comparison would let an attacker guess byte by byte from the timing.
package enum ConstantTime {
    /// Whether `a` and `b` are equal (their lengths are not secret).
    package static func equal(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
