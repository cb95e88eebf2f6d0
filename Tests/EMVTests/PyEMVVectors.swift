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
        try VectorFiles.load(name, as: File.self)
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

extension PyEMVCase {
    /// The version of a `cvn.<Class>.<method>` op.
    var cryptogramVersion: CryptogramVersion? {
        let versions: [String: CryptogramVersion] = [
            "VisaCVN10": .visa10, "VisaCVN18": .visa18, "VisaCVN22": .visa22, "InteracCVN133": .interac133,
            "MasterCardCVN16": .mastercard16, "MasterCardCVN17": .mastercard17,
            "MasterCardCVN20": .mastercard20, "MasterCardCVN21": .mastercard21,
        ]
        let parts = op.split(separator: ".")
        return parts.count == 3 ? versions[String(parts[1])] : nil
    }

    /// The card a `cvn.*` case constructs: `cvn.<Class>(iss_mk_ac, iss_mk_smi, iss_mk_smc, pan, psn)`.
    func card() throws -> CardCryptograms {
        guard let version = cryptogramVersion else { throw MissingArgument(name: "cryptogram version") }
        return try CardCryptograms(
            version: version,
            issuerMasterKeyAC: bytes("iss_mk_ac"),
            issuerMasterKeySMI: bytes("iss_mk_smi"),
            issuerMasterKeySMC: bytes("iss_mk_smc"),
            pan: text("pan") ?? "",
            psn: text("psn")
        )
    }

    /// The arguments of `cvn.<Class>.generate_ac`.
    func cryptogramData() throws -> CryptogramData {
        CryptogramData(
            amountAuthorized: try bytes("tag_9f02"),
            amountOther: try bytes("tag_9f03"),
            terminalCountryCode: try bytes("tag_9f1a"),
            terminalVerificationResults: try bytes("tag_95"),
            transactionCurrencyCode: try bytes("tag_5f2a"),
            transactionDate: try bytes("tag_9a"),
            transactionType: try bytes("tag_9c"),
            unpredictableNumber: try bytes("tag_9f37"),
            applicationInterchangeProfile: try bytes("tag_82"),
            applicationTransactionCounter: try bytes("tag_9f36"),
            issuerApplicationData: try optionalBytes("tag_9f10") ?? [],
            cardVerificationResults: try optionalBytes("cvr") ?? [],
            counters: try optionalBytes("counters") ?? []
        )
    }
}
