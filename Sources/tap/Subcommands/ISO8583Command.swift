import ArgumentParser
import EMV
import Foundation
import ISO8583

extension Tap {
    /// Hidden ISO 8583 tools for the differential test against pyiso8583.
    struct ISO8583Command: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "iso8583",
            abstract: "ISO 8583 codec tools (for differential testing).",
            shouldDisplay: false,
            subcommands: [Batch.self]
        )
    }
}

extension Tap.ISO8583Command {
    /// Encodes and decodes ISO 8583 messages from JSON lines, answering in pyiso8583's decoded-dictionary shape.
    struct Batch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "batch",
            abstract: "Encode/decode ISO 8583 messages from JSON lines on stdin.",
            discussion: """
                Input lines: {"encode": {"t": "0100", "2": "…", …}} (pyiso8583's decoded dictionary; binary fields \
                as hex) or {"decode": "<hex>"}. Output, one line per input line: {"hex": "<hex>"} for encode, \
                {"fields": {…}, "hex": "<re-encoded hex>"} for decode, or {"error": {"code", "field", "offset"}}.
                """
        )

        @Option(help: "A built-in specification: default, default_ascii or contactless.")
        var spec = "contactless"

        @Option(help: "A pyiso8583 spec dictionary as a JSON file, instead of --spec.")
        var specFile: String?

        @Flag(help: "Print the specification as pyiso8583 JSON and exit.")
        var dumpSpec = false

        func run() throws {
            let specification = try loadSpecification()
            if dumpSpec {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                print(String(decoding: try encoder.encode(specification), as: UTF8.self))
                return
            }
            var output = Data()
            while let line = readLine(strippingNewline: true) {
                let answer = Self.answer(line, specification: specification)
                output.append(try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys]))
                output.append(0x0A)
                if output.count > 1 << 16 {
                    FileHandle.standardOutput.write(output)
                    output.removeAll(keepingCapacity: true)
                }
            }
            FileHandle.standardOutput.write(output)
        }

        private func loadSpecification() throws -> Specification {
            if let specFile {
                return try JSONDecoder().decode(
                    Specification.self, from: Data(contentsOf: URL(fileURLWithPath: specFile)))
            }
            guard let specification = Specification.builtIn[spec] else {
                throw ValidationError("unknown specification \(spec); built in: default, default_ascii, contactless")
            }
            return specification
        }

        private static func answer(_ line: String, specification: Specification) -> [String: Any] {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return ["error": ["code": "badRequest"]]
            }
            do {
                if let fields = object["encode"] as? [String: String] {
                    guard let mti = fields["t"].flatMap(MessageTypeIndicator.init) else {
                        return ["error": ["code": "invalidMTI"]]
                    }
                    var message = ISO8583Message(mti: mti)
                    for (key, value) in fields {
                        guard let number = Int(key) else { continue }
                        message[number] = .text(value)
                    }
                    return ["hex": try message.encoded(using: specification).hexString]
                }
                if let hex = object["decode"] as? String, let bytes = [UInt8](hex: hex) {
                    let message = try ISO8583Message(decoding: bytes, using: specification)
                    var fields: [String: String] = ["t": message.mti.description]
                    for number in message.fieldNumbers {
                        switch message[number] {
                        case .text(let text)?: fields[String(number)] = text
                        case .binary(let bytes)?: fields[String(number)] = bytes.hexString
                        case nil: break
                        }
                    }
                    return ["fields": fields, "hex": try message.encoded(using: specification).hexString]
                }
                return ["error": ["code": "badRequest"]]
            } catch {
                return [
                    "error": ["code": error.code.description, "field": error.field ?? -1, "offset": error.offset ?? -1]
                ]
            }
        }
    }
}
