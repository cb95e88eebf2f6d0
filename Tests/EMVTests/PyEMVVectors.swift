import EMV
import Foundation
import Testing

/// One case of the pyemv 1.5.0 vector files written by scripts/vectors/pyemv_crypto.py: a pyemv function, its
/// arguments by pyemv's names, and what pyemv returned or that it refused.
struct PyEMVCase: Decodable, Sendable, CustomTestStringConvertible {
    /// A JSON argument: text (hex for bytes) or an integer.
    enum Argument: Decodable, Sendable {
        case text(String)
        case integer(Int)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int.self) {
                self = .integer(value)
            } else {
                self = .text(try container.decode(String.self))
            }
        }
    }

    struct MissingArgument: Error, CustomStringConvertible {
        let name: String
        var description: String { "vector has no usable argument \(name)" }
    }

    let op: String
    let args: [String: Argument]
    /// What pyemv returned: bytes as hex, the CVC3 as decimal text.
    let result: String?
    /// The exception class pyemv raised.
    let error: String?

    var testDescription: String { "\(op) \(result ?? error ?? "")" }

    /// A bytes argument; nil when pyemv got None.
    func optionalBytes(_ name: String) throws -> [UInt8]? {
        guard let argument = args[name] else { return nil }
        guard case .text(let hex) = argument, let bytes = [UInt8](hex: hex) else { throw MissingArgument(name: name) }
        return bytes
    }

    func bytes(_ name: String) throws -> [UInt8] {
        guard let bytes = try optionalBytes(name) else { throw MissingArgument(name: name) }
        return bytes
    }

    func text(_ name: String) -> String? {
        guard case .text(let value) = args[name] else { return nil }
        return value
    }

    func integer(_ name: String) -> Int? {
        guard case .integer(let value) = args[name] else { return nil }
        return value
    }

    /// Runs `body` (the Swift counterpart of the pyemv call) and checks it agrees with pyemv: the same result, or
    /// a ``CryptoError`` where pyemv raised.
    func check(_ body: () throws -> String) throws {
        if error != nil {
            #expect(throws: CryptoError.self, "pyemv raised \(error ?? "")") { _ = try body() }
        } else {
            #expect(try body() == result)
        }
    }
}

/// Loads the vector files from the test bundle.
enum PyEMVVectors {
    struct File: Decodable {
        let provenance: String
        let cases: [PyEMVCase]
    }

    static func load(_ name: String) throws -> File {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
    }

    /// The cases of a file whose `op` starts with `prefix`; empty when the file cannot be read, which
    /// ``provenance(_:)`` tests catch.
    static func cases(_ name: String, op prefix: String = "") -> [PyEMVCase] {
        ((try? load(name))?.cases ?? []).filter { $0.op.hasPrefix(prefix) }
    }
}

@Suite struct PyEMVVectorFileTests {
    @Test(arguments: ["pyemv-kd", "pyemv-ac", "pyemv-cvn", "pyemv-cvv"])
    func filesLoadWithProvenance(_ name: String) throws {
        let file = try PyEMVVectors.load(name)
        #expect(file.provenance.hasPrefix("generated with pyemv 1.5.0"))
        #expect(file.cases.count > 50)
        #expect(file.cases.contains { $0.error != nil })
    }
}
