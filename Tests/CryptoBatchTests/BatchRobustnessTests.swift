import CryptoBatch
import Foundation
import Testing

/// Whatever the bytes, the batch answers every line with one JSON object and never crashes.
@Suite struct BatchRobustnessTests {
    /// A small deterministic generator (SplitMix64), so a failure can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let seeds: [String] = [
        #"{"op":"kd.derive_icc_mk_b","iss_mk":"0123456789ABCDEFFEDCBA9876543210","pan":"12345678901234567","psn":"01","id":1}"#,
        #"{"op":"cvn.VisaCVN18.generate_arpc","iss_mk_ac":"0123456789ABCDEF","iss_mk_smi":"0123456789ABCDEF","iss_mk_smc":"0123456789ABCDEF","pan":"4111111111111111","tag_9f26":"1122334455667788","tag_9f36":"0001","csu":"00000000"}"#,
        #"{"op":"pinblock.decipher_pinblock_iso_4","key":"00112233445566778899AABBCCDDEEFF","pin_block":"E4BE5B623AF7E006AC319E5B93544564","pan":"1234567890123456"}"#,
        #"{"op":"kd.derive_emv2000_tree_sk","icc_mk":"0123456789ABCDEFFEDCBA9876543210","atc":"001C","height":16,"branch_factor":2}"#,
        #"{"op":"mac.generate_cbc_mac","key":"00112233445566778899AABBCCDDEEFF","data":"","padding":3,"algorithm":"AES","length":16}"#,
        #"{"op":"ac.generate_ac","sk_ac":"00112233445566778899AABBCCDDEEFF","data":"00","padding_type":"VISA","length":-3}"#,
        #"{"op":"des.apply_key_variant","key":"0011223344556677","variant":31,"id":"\u00e9\ud83d\ude00"}"#,
    ]

    @Test func mutatedRequestsAlwaysGetOneJSONAnswerEach() throws {
        var random = SplitMix(state: 0x5EED)
        let alphabet = Array(#"{}[]":,\-+.0123456789eEaAfFxnul trsGz"#.utf8) + [0x00, 0x0A, 0x0D, 0x80, 0xC3, 0xFF]
        var lines: [[UInt8]] = []
        for _ in 0..<5000 {
            var line = Array(Self.seeds[Int.random(in: 0..<Self.seeds.count, using: &random)].utf8)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let position = Int.random(in: 0..<line.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: line[position] = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
                case 1: line.remove(at: position)
                case 2: line.insert(alphabet[Int.random(in: 0..<alphabet.count, using: &random)], at: position)
                default: line.removeSubrange(position...)
                }
                if line.isEmpty { line = [UInt8(ascii: "{")] }
            }
            // A newline inside a mutated line splits it in two lines: keep one line per entry.
            lines.append(line.map { $0 == 0x0A ? UInt8(ascii: " ") : $0 })
        }
        let processor = BatchProcessor()
        let output = processor.run(lines.flatMap { $0 + [0x0A] })
        let answers = output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        #expect(answers.count == lines.count)
        for answer in answers {
            let object = try JSONSerialization.jsonObject(with: Data(answer)) as? [String: Any]
            #expect(object?["result"] != nil || object?["error"] != nil)
        }
    }

    @Test func randomBytesAreAnsweredToo() throws {
        var random = SplitMix(state: 42)
        var input: [UInt8] = []
        var count = 0
        for _ in 0..<2000 {
            let length = Int.random(in: 0..<200, using: &random)
            input += (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }.map { $0 == 0x0A ? 0x20 : $0 }
            input.append(0x0A)
            count += 1
        }
        let processor = BatchProcessor()
        let output = processor.run(input)
        #expect(output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().count == count)
    }

    @Test func tooManyFieldsIsAnError() throws {
        let fields = (0..<70).map { #""f\#($0)":1"# }.joined(separator: ",")
        let processor = BatchProcessor()
        let output = processor.run(Array(#"{"op":"mac.pad_iso_1",\#(fields)}"#.utf8))
        let object = try #require(JSONSerialization.jsonObject(with: Data(output)) as? [String: Any])
        #expect((object["error"] as? [String: Any])?["code"] as? String == "unsupportedValue")
    }

    /// Hex arguments are decoded into buffers kept from line to line (one per field position) and cryptogram
    /// inputs into one growing buffer: a line's answer must not depend on the lines before it, whatever their
    /// lengths and whether their hex was valid.
    @Test func answersDoNotDependOnEarlierLines() {
        var random = SplitMix(state: 20_261_127)
        func hex(_ bytes: Int) -> String {
            String((0..<2 * bytes).map { _ in "0123456789ABCDEFabcdef".randomElement(using: &random)! })
        }
        // Mostly valid lengths, sometimes odd digits or a character that is not hex.
        func argument(_ lengths: [Int]) -> String {
            switch random.next() % 16 {
            case 0: return hex(lengths.randomElement(using: &random)!) + "A"
            case 1: return "Z" + hex(lengths.randomElement(using: &random)!).dropFirst()
            default: return hex(lengths.randomElement(using: &random)!)
            }
        }
        let lines = (0..<400).map { _ in
            switch random.next() % 3 {
            case 0:
                return
                    #"{"op":"des.encrypt_tdes_ecb","key":"\#(argument([8, 16, 24]))","data":"\#(argument([0, 8, 24, 40]))"}"#
            case 1:
                return #"{"op":"mac.pad_iso9797_2","data":"\#(argument([0, 1, 7, 9, 30]))"}"#
            default:
                let tags = [
                    "tag_9f02", "tag_9f03", "tag_9f1a", "tag_95", "tag_5f2a", "tag_9a", "tag_9c", "tag_9f37",
                    "tag_82", "tag_9f36", "tag_9f10",
                ]
                let fields = tags.map { #""\#($0)":"\#(argument([1, 2, 4, 6, 7]))""# }.joined(separator: ",")
                return
                    #"{"op":"cvn.VisaCVN18.generate_ac","iss_mk_ac":"\#(argument([16]))","iss_mk_smi":"\#(hex(16))","iss_mk_smc":"\#(hex(16))","pan":"4111111111111111","psn":"01",\#(fields)}"#
            }
        }
        let together = BatchProcessor().run(Array(lines.map { $0 + "\n" }.joined().utf8))
        let alone = lines.flatMap { BatchProcessor().run(Array(($0 + "\n").utf8)) }
        #expect(String(decoding: together, as: UTF8.self) == String(decoding: alone, as: UTF8.self))
        // Both kinds of answer occur, so both paths were taken.
        let text = String(decoding: together, as: UTF8.self)
        #expect(text.contains(#""result""#) && text.contains(#""error""#))
    }
}
