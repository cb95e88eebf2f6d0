import EMV
import Foundation

/// The DES, MAC and PIN block vector files (see their "provenance" fields), decoded.
enum CryptoVectors {
    struct DESFile: Decodable {
        struct Block: Decodable {
            let key: String
            let plaintext: String
            let ciphertext: String
        }
        struct Mode: Decodable {
            let key: String
            let mode: String
            let iv: String
            let plaintext: String
            let ciphertext: String
        }
        struct KCV: Decodable {
            let key: String
            let kcv: String
        }
        struct Parity: Decodable {
            let key: String
            let adjusted: String
        }
        struct Variant: Decodable {
            let key: String
            let variant: Int
            let result: String
        }
        let provenance: String
        let published: [Block]
        let sp800_20: [Block]
        let modes: [Mode]
        let kcv: [KCV]
        let parity: [Parity]
        let variants: [Variant]
    }

    struct MACFile: Decodable {
        struct Case: Decodable {
            let function: String
            let key: String?
            let key1: String?
            let key2: String?
            let data: String
            let padding: Int
            let length: Int
            let mac: String
        }
        struct Pad: Decodable {
            let data: String
            let padding: Int
            let block_size: Int
            let padded: String
        }
        let provenance: String
        let cases: [Case]
        let padding: [Pad]
    }

    struct PINBlockFile: Decodable {
        struct ISO0: Decodable {
            let pin: String
            let pan: String
            let block: String
        }
        struct ISO2: Decodable {
            let pin: String
            let block: String
        }
        struct ISO3: Decodable {
            let pin: String
            let pan: String
            let fill: String
            let block: String
        }
        struct ISO4: Decodable {
            let pin: String
            let pan: String
            let key: String
            let random: String
            let pin_field: String
            let pan_field: String
            let block: String
        }
        /// One psec call at an edge: `result` when psec accepted it ("random" for random output), else `error`.
        struct Check: Decodable {
            let op: String
            let pin: String?
            let pan: String?
            let key: String?
            let block: String?
            let pin_field: String?
            let result: String?
            let error: Bool?
        }
        let provenance: String
        let iso0: [ISO0]
        let iso2: [ISO2]
        let iso3: [ISO3]
        let iso4: [ISO4]
        let checks: [Check]
    }

    /// Hex from a vector file; a malformed string fails the test rather than crashing it.
    static func bytes(_ text: String) throws -> [UInt8] {
        guard let bytes = [UInt8](hex: text) else { throw CocoaError(.coderInvalidValue) }
        return bytes
    }

    /// A generator that replays fixed values, then repeats the last one, so random fill is known.
    struct ReplayGenerator: RandomNumberGenerator {
        var values: [UInt64]

        mutating func next() -> UInt64 {
            values.count > 1 ? values.removeFirst() : values.first ?? 0
        }
    }
}
