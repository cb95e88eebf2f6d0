import EMV
import Testing

@Suite struct HexTests {
    @Test func roundTrip() {
        let bytes: [UInt8] = [0x00, 0x9F, 0x02, 0xAB, 0xff]
        #expect(bytes.hexString == "009F02ABFF")
        #expect([UInt8](hex: "009f02abFF") == bytes)
    }

    @Test(arguments: ["0", "0G", "9F0", " 9F"])
    func rejectsMalformed(_ text: String) {
        #expect([UInt8](hex: text) == nil)
    }
}

/// The decoder every hex argument goes through (eight digits at a time, then by table): every byte value at every
/// position must be accepted or refused exactly as the definition says.
@Suite struct HexDecoderTests {
    @Test("every byte at every position of 2- to 22-digit texts: decoded or refused as by the definition")
    func everyByteAtEveryPosition() {
        let alphabet = Array("0123456789abcdefABCDEF".utf8)
        var generator = SystemRandomNumberGenerator()
        for length in stride(from: 2, through: 22, by: 2) {
            let text = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            for position in 0..<length {
                for value in 0...255 {
                    var mutated = text
                    mutated[position] = UInt8(value)
                    #expect(decoded(mutated) == Self.reference(mutated), "byte \(value) at \(position) of \(length)")
                }
            }
        }
    }

    private func decoded(_ digits: [UInt8]) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: digits.count / 2)
        let valid = digits.withUnsafeBufferPointer { digits in
            output.withUnsafeMutableBufferPointer { [UInt8].decodeHex(digits, into: $0) }
        }
        return valid ? output : nil
    }

    /// Digit by digit, by the definition.
    private static func reference(_ digits: [UInt8]) -> [UInt8]? {
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x41...0x46: c - 0x41 + 10
            case 0x61...0x66: c - 0x61 + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
