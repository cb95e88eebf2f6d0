import CryptoBatch
import Foundation
import Testing

/// The dispatcher end to end: request lines in, result lines out.
@Suite struct BatchProcessorTests {
    /// Runs `lines` (joined with newlines) and returns the answer lines as JSON objects.
    private func run(_ lines: [String], trailingNewline: Bool = true) throws -> [[String: Any]] {
        let processor = BatchProcessor()
        let input = lines.joined(separator: "\n") + (trailingNewline ? "\n" : "")
        let output = processor.run(Array(input.utf8))
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.hasSuffix("\n"))
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    private func run(_ line: String) throws -> [String: Any] {
        try #require(try run([line]).first)
    }

    private func errorCode(_ answer: [String: Any]) -> String? {
        (answer["error"] as? [String: Any])?["code"] as? String
    }

    private func errorMessage(_ answer: [String: Any]) -> String? {
        (answer["error"] as? [String: Any])?["message"] as? String
    }

    struct Vector: Decodable, Sendable, CustomTestStringConvertible {
        let request: [String: JSONScalar]
        let result: String
        let source: String
        var testDescription: String { source }
    }

    enum JSONScalar: Decodable, Sendable {
        case string(String)
        case int(Int)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let int = try? container.decode(Int.self) {
                self = .int(int)
            } else {
                self = .string(try container.decode(String.self))
            }
        }

        var json: Any {
            switch self {
            case .string(let string): string
            case .int(let int): int
            }
        }
    }

    static let vectors: [Vector] = {
        struct File: Decodable {
            let provenance: String
            let vectors: [Vector]
        }
        guard
            let url = Bundle.module.url(
                forResource: "docstring-examples", withExtension: "json", subdirectory: "Vectors"),
            let data = try? Data(contentsOf: url),
            let file = try? JSONDecoder().decode(File.self, from: data)
        else { return [] }
        return file.vectors
    }()

    @Test func vectorsAreLoaded() {
        #expect(Self.vectors.count >= 40)
    }

    @Test(arguments: vectors)
    func answersThePythonDocstringExamples(_ vector: Vector) throws {
        let request = vector.request.mapValues(\.json)
        let line = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
        let answer = try run(line)
        #expect(answer["result"] as? String == vector.result, "\(answer)")
    }

    @Test func answersEveryLineInOrderWithItsId() throws {
        let answers = try run([
            #"{"op":"mac.pad_iso_1","data":"12","id":1}"#,
            "",
            "not json",
            #"{"id":"two","op":"mac.pad_iso_2","data":"12"}"#,
            #"{"id":{"nested":1},"op":"x"}"#,
            #"{"op":"mac.pad_iso_1","data":"1234","id":[1]}"#,
            #"{"op":"mac.pad_iso_1","data":"","id":null}"#,
        ])
        #expect(answers.count == 7)
        #expect(answers[0]["id"] as? Int == 1)
        #expect(answers[0]["result"] as? String == "1200000000000000")
        #expect(errorCode(answers[1]) == "emptyLine")
        #expect(errorCode(answers[2]) == "invalidJSON")
        #expect(answers[3]["id"] as? String == "two")
        #expect(answers[3]["result"] as? String == "1280000000000000")
        #expect(errorCode(answers[4]) == "unsupportedValue")
        #expect(errorCode(answers[5]) == "unsupportedValue")
        #expect(answers[6].keys.contains("id") && answers[6]["id"] is NSNull)
        #expect(answers[6]["result"] as? String == "0000000000000000")
    }

    @Test func echoesTheIdVerbatim() throws {
        let processor = BatchProcessor()
        let output = processor.run(Array(#"{"id": "a\u0041\"" ,"op":"mac.pad_iso_1","data":"00"}"#.utf8))
        #expect(String(decoding: output, as: UTF8.self) == #"{"id":"a\u0041\"","result":"0000000000000000"}"# + "\n")
    }

    @Test func answersALastLineWithoutNewline() throws {
        let answers = try run(
            [#"{"op":"mac.pad_iso_1","data":"01"}"#, #"{"op":"mac.pad_iso_1","data":"02"}"#], trailingNewline: false)
        #expect(answers.map { $0["result"] as? String } == ["0100000000000000", "0200000000000000"])
    }

    @Test func linesMaySpanChunks() throws {
        let input = Array(
            (0..<50).map { #"{"op":"des.generate_kcv","key":"0123456789ABCDEFFEDCBA9876543210","id":\#($0)}"# + "\n" }
                .joined().utf8)
        let whole = BatchProcessor()
        let expected = whole.run(input)
        for chunkSize in [1, 7, 64, 1000] {
            let processor = BatchProcessor()
            var start = 0
            while start < input.count {
                let end = min(start + chunkSize, input.count)
                input[start..<end].withUnsafeBufferPointer { processor.consume($0) }
                start = end
            }
            processor.finish()
            #expect(processor.output.bytes == expected, "chunks of \(chunkSize)")
        }
    }

    @Test func acceptsFullAndShortOperationNames() throws {
        let key = "0123456789ABCDEFFEDCBA9876543210"
        for op in [
            "pyemv.tools.key_check_digits", "tools.key_check_digits", "psec.des.generate_kcv", "des.generate_kcv",
        ] {
            let answer = try run(#"{"op":"\#(op)","key":"\#(key)"}"#)
            #expect(answer["result"] as? String == "08D7", "\(op)")
        }
        for op in [
            "pyemv.mac.mac_iso9797_3", "mac.mac_iso9797_3", "psec.mac.generate_retail_mac", "mac.generate_retail_mac",
        ] {
            let answer = try run(
                #"{"op":"\#(op)","key1":"\#(key)","key2":"FEDCBA98765432100123456789ABCDEF","data":"1234567890ABCDEF","padding":2}"#
            )
            #expect(answer["result"] as? String == "644AA5C915DBDAF8", "\(op)")
        }
    }

    @Test func anAmbiguousShortNameIsUnknown() {
        let run: @Sendable (inout BatchArguments) throws(BatchError) -> BatchValue = { _ throws(BatchError) in
            .string("")
        }
        let table = BatchOperationTable([
            BatchOperation("a.m.f", run), BatchOperation("b.m.f", run), BatchOperation("b.m.g", run),
        ])
        #expect(table.operation(named: "a.m.f")?.name == "a.m.f")
        #expect(table.operation(named: "b.m.f")?.name == "b.m.f")
        #expect(table.operation(named: "m.f") == nil)
        #expect(table.operation(named: "m.g")?.name == "b.m.g")
        #expect(table.operation(named: "g") == nil)
    }

    /// Every standard name is found, and no name one byte off (at any position, names compared word-wise).
    @Test func namesDifferingInOneByteAreUnknown() {
        let table = BatchOperationTable.standard
        for operation in table.operations {
            let name = Array(operation.name.utf8)
            #expect(table.operation(named: name[...])?.name == operation.name)
            for position in name.indices {
                // 0x80 makes a byte no name has; 0x01 may make another name (CVN16 -> CVN17), never a wrong one.
                var outside = name
                outside[position] ^= 0x80
                #expect(table.operation(named: outside[...]) == nil, "\(operation.name) at \(position)")
                var near = name
                near[position] ^= 0x01
                if let found = table.operation(named: near[...]) {
                    #expect(found.name == String(decoding: near, as: UTF8.self), "\(operation.name) at \(position)")
                }
            }
        }
    }

    @Test(arguments: [
        (#"{"data":"00"}"#, "unknownOperation"),
        (#"{"op":1,"data":"00"}"#, "unknownOperation"),
        (#"{"op":"mac.nope","data":"00"}"#, "unknownOperation"),
        (#"{"op":"MAC.PAD_ISO_1","data":"00"}"#, "unknownOperation"),
        (#"{"op":"mac.pad_iso_1"}"#, "missingArgument"),
        (#"{"op":"mac.pad_iso_1","data":null}"#, "missingArgument"),
        (#"{"op":"mac.pad_iso_1","data":"00","extra":1}"#, "unexpectedArgument"),
        (#"{"op":"mac.pad_iso_1","data":"0"}"#, "invalidArgument"),
        (#"{"op":"mac.pad_iso_1","data":"0G"}"#, "invalidArgument"),
        (#"{"op":"mac.pad_iso_1","data":"00 11"}"#, "invalidArgument"),
        (#"{"op":"mac.pad_iso_1","data":12}"#, "invalidArgument"),
        (#"{"op":"mac.pad_iso_1","data":"00","block_size":"8"}"#, "invalidArgument"),
        (#"{"op":"mac.pad_iso_1","data":"00","block_size":8.0}"#, "invalidArgument"),
        (#"{"op":"mac.pad_iso_1","data":"00","block_size":0}"#, "invalidArgument"),
        (#"{"op":"mac.pad_iso_3","data":"\#(String(repeating: "00", count: 32))","block_size":1}"#, "invalidArgument"),
        (#"{"op":"mac.generate_cbc_mac","key":"0011223344556677","data":"","padding":4}"#, "invalidArgument"),
        (
            #"{"op":"mac.generate_cbc_mac","key":"0011223344556677","data":"","padding":1,"algorithm":"RC2"}"#,
            "invalidArgument"
        ),
        (
            #"{"op":"ac.generate_ac","sk_ac":"00112233445566778899AABBCCDDEEFF","data":"","padding_type":"visa"}"#,
            "invalidArgument"
        ),
        (
            #"{"op":"mac.mac_iso9797_3","key1":"0011223344556677","key2":"0011223344556677","data":"","padding":3}"#,
            "invalidArgument"
        ),
        (#"{"op":"des.encrypt_tdes_ecb","key":"00112233445566","data":"0011223344556677"}"#, "invalidKeyLength"),
        (#"{"op":"des.encrypt_tdes_ecb","key":"0011223344556677","data":"00112233"}"#, "invalidDataLength"),
        (
            #"{"op":"des.encrypt_tdes_cbc","key":"0011223344556677","iv":"00","data":"0011223344556677"}"#,
            "invalidIVLength"
        ),
        (#"{"op":"kd.derive_common_sk","icc_mk":"00112233445566778899AABBCCDDEEFF","r":"00"}"#, "invalidFieldLength"),
        (#"{"op":"pinblock.encode_pinblock_iso_0","pin":"123","pan":"5544332211009966"}"#, "invalidPIN"),
        (#"{"op":"pinblock.encode_pinblock_iso_0","pin":"1234","pan":"554433221100"}"#, "invalidPAN"),
        (
            #"{"op":"pinblock.decode_pinblock_iso_0","pinblock":"341277CDDEEFF669","pan":"5544332211009966"}"#,
            "invalidPINBlockFormat"
        ),
    ])
    func reportsTypedErrors(_ line: String, _ code: String) throws {
        let answer = try run(line)
        #expect(errorCode(answer) == code, "\(answer)")
        #expect(answer["result"] == nil)
    }

    @Test func errorMessagesNeverCarryArgumentValues() throws {
        let key = "0123456789ABCDEFFEDCBA98765432"  // 15 bytes: rejected
        let pan = "5544332211009966"
        let lines = [
            #"{"op":"des.encrypt_tdes_ecb","key":"\#(key)","data":"0011223344556677"}"#,
            #"{"op":"kd.derive_icc_mk_a","iss_mk":"\#(key)","pan":"\#(pan)"}"#,
            #"{"op":"kd.derive_icc_mk_a","iss_mk":"0123456789ABCDEF","pan":"55443322X1009966"}"#,
            #"{"op":"pinblock.encode_pinblock_iso_0","pin":"98765432109876","pan":"\#(pan)"}"#,
            #"{"op":"pinblock.decode_pinblock_iso_0","pinblock":"041277CDDEEFF6","pan":"\#(pan)"}"#,
            #"{"op":"pinblock.encipher_pinblock_iso_4","key":"\#(key)","pin":"9876","pan":"\#(pan)"}"#,
            #"{"op":"cvn.VisaCVN18.generate_ac","iss_mk_ac":"\#(key)","iss_mk_smi":"\#(key)","iss_mk_smc":"\#(key)","pan":"\#(pan)"}"#,
        ]
        for answer in try run(lines) {
            let message = try #require(errorMessage(answer))
            for secret in [key, pan, "55443322X1009966", "98765432109876", "041277CDDEEFF6", "9876"] {
                #expect(!message.uppercased().contains(secret), "\(message)")
            }
        }
    }

    @Test func randomFillBlocksDecodeBack() throws {
        let pan = "5544332211009966"
        let key = "00112233445566778899AABBCCDDEEFF"
        let encoded = try run([
            #"{"op":"pinblock.encode_pinblock_iso_3","pin":"24680","pan":"\#(pan)"}"#,
            #"{"op":"pinblock.encipher_pinblock_iso_4","key":"\#(key)","pin":"24680","pan":"\#(pan)"}"#,
            #"{"op":"pinblock.encode_pin_field_iso_4","pin":"24680"}"#,
        ]).map { $0["result"] as? String ?? "" }
        let decoded = try run([
            #"{"op":"pinblock.decode_pinblock_iso_3","pinblock":"\#(encoded[0])","pan":"\#(pan)"}"#,
            #"{"op":"pinblock.decipher_pinblock_iso_4","key":"\#(key)","pin_block":"\#(encoded[1])","pan":"\#(pan)"}"#,
            #"{"op":"pinblock.decode_pin_field_iso_4","pin_field":"\#(encoded[2])"}"#,
        ])
        #expect(decoded.map { $0["result"] as? String } == ["24680", "24680", "24680"])
    }

    @Test func cryptogramVersionsTakeConstructorAndMethodArguments() throws {
        // Inputs and ARQC from pyemv 1.5.0's cvn.VisaCVN10 (checked with the installed package).
        let card =
            #""iss_mk_ac":"0123456789ABCDEFFEDCBA9876543210","iss_mk_smi":"0123456789ABCDEFFEDCBA9876543210","iss_mk_smc":"0123456789ABCDEFFEDCBA9876543210","pan":"4111111111111111","psn":"00""#
        let tags =
            #""tag_9f02":"000000001000","tag_9f03":"000000000000","tag_9f1a":"0840","tag_95":"0000000000","tag_5f2a":"0840","tag_9a":"250101","tag_9c":"00","tag_9f37":"12345678","tag_82":"3800","tag_9f36":"0001""#
        let answers = try run([
            #"{"op":"cvn.VisaCVN10.generate_ac",\#(card),\#(tags),"cvr":"03A00000"}"#,
            #"{"op":"cvn.VisaCVN10.generate_ac",\#(card),\#(tags)}"#,
            #"{"op":"cvn.VisaCVN10.generate_ac",\#(card),\#(tags),"cvr":"03A00000","tag_9f10":"00"}"#,
        ])
        #expect(answers[0]["result"] as? String == Self.visaCVN10ARQC)
        #expect(errorCode(answers[1]) == "missingArgument")
        #expect(errorCode(answers[2]) == "unexpectedArgument")
    }

    static let visaCVN10ARQC = "1CA51109AB80766C"

    @Test func listsEveryOperationOfTheIssue() {
        let names = Set(BatchOperationTable.standard.operations.map(\.name))
        let required =
            [
                "pyemv.kd.derive_icc_mk_a", "pyemv.kd.derive_icc_mk_b", "pyemv.kd.derive_common_sk",
                "pyemv.kd.derive_visa_sm_sk", "pyemv.kd.derive_emv2000_tree_sk", "pyemv.ac.generate_ac",
                "pyemv.ac.generate_arpc_1", "pyemv.ac.generate_arpc_2", "pyemv.cvv.generate_cvc3",
                "pyemv.mac.mac_iso9797_3", "pyemv.mac.pad_iso9797_1", "pyemv.mac.pad_iso9797_2",
                "pyemv.tools.key_check_digits", "pyemv.tools.adjust_key_parity", "pyemv.tools.encrypt_tdes_cbc",
                "pyemv.tools.encrypt_tdes_ecb", "psec.des.encrypt_tdes_ecb", "psec.des.encrypt_tdes_cbc",
                "psec.des.decrypt_tdes_ecb", "psec.des.decrypt_tdes_cbc", "psec.des.generate_kcv",
                "psec.des.adjust_key_parity", "psec.mac.generate_cbc_mac", "psec.mac.generate_retail_mac",
                "psec.mac.pad_iso_1", "psec.mac.pad_iso_2", "psec.pinblock.encode_pinblock_iso_0",
                "psec.pinblock.decode_pinblock_iso_0", "psec.pinblock.encode_pinblock_iso_3",
                "psec.pinblock.decode_pinblock_iso_3", "psec.pinblock.encipher_pinblock_iso_4",
                "psec.pinblock.decipher_pinblock_iso_4", "psec.pinblock.encode_pin_field_iso_4",
                "psec.pinblock.encode_pan_field_iso_4", "psec.pinblock.decode_pin_field_iso_4",
            ]
            + [
                "VisaCVN10", "VisaCVN18", "VisaCVN22", "MasterCardCVN16", "MasterCardCVN17", "MasterCardCVN20",
                "MasterCardCVN21",
            ]
            .flatMap { ["pyemv.cvn.\($0).generate_ac", "pyemv.cvn.\($0).generate_arpc"] }
        for name in required {
            #expect(names.contains(name), "\(name)")
        }
    }
}
