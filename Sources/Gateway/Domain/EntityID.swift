import Foundation
import _SQLStorage

/// Generates the gateway's public identifiers: a type prefix, the creation time and random characters, e.g.
/// `pay_2dk7xq4ra…`, so an id says what it names, can't be guessed or enumerated, and sorts by creation time.
///
/// Why the time: ids are primary keys and index keys (payments, the audit log by entity). Random keys put every
/// insert on a different B-tree leaf, and each such page is written again to the WAL at commit and to the database
/// at checkpoint; keys that grow with time append to the same few pages, as a sequence would, while the random
/// part keeps them unguessable. The time is public anyway (`createdAt`).
enum EntityID {
    /// Base 32 without 0, 1, l and o, in ASCII order so that the time part sorts as its value does.
    private static let alphabet = Array("23456789abcdefghijkmnpqrstuvwxyz".utf8)

    /// A new id: `prefix_`, 9 characters of milliseconds since 1970 (45 bits: good past the year 3000), then
    /// 20 random characters (100 bits).
    static func make(_ prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let millis = UInt64(max(0, Date().millis))
        var characters = [UInt8](prefix.utf8)
        characters.reserveCapacity(characters.count + 30)
        characters.append(UInt8(ascii: "_"))
        for index in (0..<9).reversed() {
            characters.append(alphabet[Int(truncatingIfNeeded: millis >> (5 * UInt64(index)) & 31)])
        }
        // Five bits a character from two 64-bit draws: each draw is a getrandom call, so not one per character.
        for _ in 0..<2 {
            let word: UInt64 = generator.next()
            for index in 0..<10 {
                characters.append(alphabet[Int(truncatingIfNeeded: word >> (5 * UInt64(index)) & 31)])
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// `count` random decimal digits.
    static func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(Int.random(in: 0...9))) })
    }
}
