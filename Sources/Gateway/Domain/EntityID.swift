import Foundation

/// Generates the gateway's public identifiers: a type prefix and random lowercase base-32 characters, e.g.
/// `mer_k3v9…`, so an id says what it names and can't be guessed or enumerated.
enum EntityID {
    private static let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")

    /// A new id `prefix_` + 20 random characters (100 bits).
    static func make(_ prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        return prefix + "_"
            + String((0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] })
    }

    /// `count` random decimal digits.
    static func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(Int.random(in: 0...9))) })
    }
}
