import EMV
import Foundation
import ISO8583
import Testing

/// Messages from pyiso8583 4.0.1's README and docstrings, and two it encoded (Vectors/pyiso8583-examples.json).
struct KnownMessageTests {
    struct Vector: Decodable, CustomTestStringConvertible {
        let source: String
        let spec: String
        let hex: String
        let fields: [String: String]
        var testDescription: String { "\(spec): \(hex.prefix(24))…" }
    }

    struct File: Decodable {
        let provenance: String
        let vectors: [Vector]
    }

    static let vectors: [Vector] = {
        guard
            let url = Bundle.module.url(
                forResource: "pyiso8583-examples", withExtension: "json", subdirectory: "Vectors"),
            let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data)
        else { return [] }
        return file.vectors
    }()

    @Test func vectorsLoad() {
        #expect(Self.vectors.count >= 8)
    }

    @Test(arguments: vectors)
    func decodesAndReencodes(vector: Vector) throws {
        let specification = try #require(Specification.builtIn[vector.spec])
        let raw = bytes(vector.hex)
        let message = try ISO8583Message(decoding: raw, using: specification)
        #expect(message.mti.description == vector.fields["t"])
        let expectedNumbers = vector.fields.keys.compactMap(Int.init).sorted()
        #expect(message.fieldNumbers == expectedNumbers)
        for number in expectedNumbers {
            let value = try #require(message[number])
            switch value {
            case .text(let text): #expect(text == vector.fields[String(number)], "field \(number)")
            case .binary(let data): #expect(data.hexString == vector.fields[String(number)], "field \(number)")
            }
        }
        #expect(try message.encoded(using: specification) == raw)
    }

    @Test(arguments: vectors)
    func encodesFromPyisoFields(vector: Vector) throws {
        let specification = try #require(Specification.builtIn[vector.spec])
        let mti = try #require(vector.fields["t"].flatMap(MessageTypeIndicator.init))
        var message = ISO8583Message(mti: mti)
        for (key, value) in vector.fields {
            if let number = Int(key) { message[number] = .text(value) }
        }
        #expect(try message.encoded(using: specification) == bytes(vector.hex))
    }

    /// pyiso8583 README: decode, change to 0210, drop field 2, add 39 = 05, encode.
    @Test func readmeResponseWorkflow() throws {
        var message = try ISO8583Message(decoding: ascii("02004000000000000000101234567890"), using: .defaultASCII)
        #expect(message.mti == .financialRequest)
        #expect(message[.pan] == "1234567890")
        message.mti = try #require(message.mti.response)
        message[.pan] = nil
        message[.responseCode] = "05"
        #expect(try message.encoded(using: .defaultASCII) == ascii("0210000000000200000005"))
    }

    @Test func iccDataParsesWithEMV() throws {
        let vector = try #require(Self.vectors.first { $0.spec == "default" && $0.fields["55"] != nil })
        let message = try ISO8583Message(decoding: bytes(vector.hex), using: .default)
        let nodes = try #require(try message.iccData())
        #expect(nodes.first(EMV.Tag(rawValue: 0x9F26))?.value.count == 8)
        #expect(nodes.first(EMV.Tag(rawValue: 0x9F36)).map { Array($0.value) } == [0x00, 0x01])
    }
}
