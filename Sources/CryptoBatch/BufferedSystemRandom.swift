#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's cryptographically secure random bytes, fetched 4 KiB at a time.
///
/// `SystemRandomNumberGenerator` makes a system call for every 8 bytes; random-fill PIN blocks draw up to ten
/// values each, so the batch reads the same source (getentropy on Linux, arc4random on Apple platforms) in bulk.
final class BufferedSystemRandom: RandomNumberGenerator {
    private var words = [UInt64](repeating: 0, count: 512)
    private var position = 512

    func next() -> UInt64 {
        if position == words.count { refill() }
        defer { position += 1 }
        return words[position]
    }

    private func refill() {
        words.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            #if canImport(Glibc)
                // getentropy (getrandom underneath) serves at most 256 bytes per call.
                var filled = 0
                while filled < buffer.count {
                    if getentropy(base + filled, 256) == 0 {
                        filled += 256
                    } else {
                        var system = SystemRandomNumberGenerator()
                        for offset in stride(from: filled, to: buffer.count, by: 8) {
                            buffer.storeBytes(of: system.next(), toByteOffset: offset, as: UInt64.self)
                        }
                        filled = buffer.count
                    }
                }
            #else
                arc4random_buf(base, buffer.count)
            #endif
        }
        position = 0
    }
}
