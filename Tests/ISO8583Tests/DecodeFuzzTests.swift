import ISO8583
import Testing

/// Random and mutated inputs: decoding never traps, and whatever decodes re-encodes and decodes to the same message.
struct DecodeFuzzTests {
    /// A seeded 64-bit LCG (Knuth's MMIX constants) with an xor-shift output, so a failure repeats.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    static let specifications: [Specification] = [.default, .defaultASCII, .contactless, packedSpecification]

    func check(_ raw: [UInt8], _ specification: Specification) {
        guard let message = try? ISO8583Message(decoding: raw, using: specification) else { return }
        #expect(throws: Never.self) {
            let again = try message.encoded(using: specification)
            #expect(try ISO8583Message(decoding: again, using: specification) == message)
        }
        _ = message.description
    }

    @Test(arguments: specifications)
    func randomBytes(specification: Specification) {
        var generator = Generator(state: 0x1583)
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...80, using: &generator)
            var raw = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Half the inputs start with a plausible MTI so the bitmap and field paths are reached.
            if Bool.random(using: &generator), raw.count >= 4 {
                raw.replaceSubrange(0..<4, with: ascii("0100"))
            }
            check(raw, specification)
        }
    }

    @Test(arguments: specifications)
    func mutatedValidMessages(specification: Specification) throws {
        var generator = Generator(state: 0x8583)
        var message = ISO8583MessageTests.authorizationRequest()
        if specification.name == "default_ascii" {
            message[.pinBlock] = "0412345678ABCDEF"
            message[.iccData] = "9F2608A1B2C3D4E5F60708"
        }
        if specification.name == "packed" {
            message = ISO8583Message(
                mti: .authorizationRequest,
                fields: [
                    2: "4761739001010119", 3: "000000", 11: "12345", 35: "4761739001010119D2512", 55: .binary([1, 2]),
                ])
        }
        let valid = try message.encoded(using: specification)
        for _ in 0..<5_000 {
            var raw = valid
            switch Int.random(in: 0...3, using: &generator) {
            case 0: raw = Array(raw.prefix(Int.random(in: 0..<raw.count, using: &generator)))
            case 1: raw.append(UInt8.random(in: 0...255, using: &generator))
            default:
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    raw[Int.random(in: 0..<raw.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            check(raw, specification)
        }
    }
}

extension DecodeFuzzTests {
    /// Specifications are data a caller may get wrong: absurd lengths give errors, not traps.
    @Test func absurdSpecificationsDoNotTrap() {
        let absurd = Specification(
            name: "absurd", messageTypeEncoding: .ascii, primaryBitmapEncoding: .binary,
            secondaryBitmapEncoding: .binary,
            fields: [
                2: FieldSpecification(
                    name: "huge", dataEncoding: .binary, lengthPrefixBytes: 0, maximumLength: .max, lengthUnit: .nibbles
                ),
                3: FieldSpecification(name: "negative", dataEncoding: .ascii, lengthPrefixBytes: -3, maximumLength: -1),
                4: .variable("wide prefix", prefixBytes: 40, lengthEncoding: .binary, maximumLength: .max),
            ])
        #expect(throws: ISO8583Error.truncatedField) {
            try ISO8583Message(decoding: ascii("0100") + [0x40, 0, 0, 0, 0, 0, 0, 0, 0x12], using: absurd)
        }
        #expect(throws: ISO8583Error.truncatedField) {
            try ISO8583Message(
                decoding: ascii("0100") + [0x10, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0xFF, count: 40),
                using: absurd)
        }
        #expect(throws: ISO8583Error.lengthMismatch) {
            try ISO8583Message(mti: .authorizationRequest, fields: [3: "1"]).encoded(using: absurd)
        }
        var generator = Generator(state: 7)
        for _ in 0..<2_000 {
            let tail = (0..<Int.random(in: 0...60, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            check(ascii("0100") + tail, absurd)
        }
    }
}
