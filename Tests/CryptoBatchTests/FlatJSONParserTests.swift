import CryptoBatch
import Testing

@Suite struct FlatJSONParserTests {
    private func parse(_ line: String) throws(BatchError) -> FlatJSONParser {
        let parser = FlatJSONParser()
        try parser.parse(Array(line.utf8))
        return parser
    }

    private func string(_ parser: FlatJSONParser, _ key: StaticString) -> String? {
        guard let index = parser.index(of: key), case .string(let range) = parser.fields[index].value else {
            return nil
        }
        return String(decoding: parser.bytes(range), as: UTF8.self)
    }

    @Test func parsesScalarsOfEveryType() throws {
        let parser = try parse(#" { "op" : "x", "n": -12, "f": 1.5e3, "t": true, "b": false, "z": null } "#)
        #expect(parser.fields.count == 6)
        #expect(string(parser, "op") == "x")
        #expect(parser.fields[try #require(parser.index(of: "n"))].value == .number(-12))
        #expect(parser.fields[try #require(parser.index(of: "f"))].value == .number(nil))
        #expect(parser.fields[try #require(parser.index(of: "t"))].value == .bool(true))
        #expect(parser.fields[try #require(parser.index(of: "b"))].value == .bool(false))
        #expect(parser.fields[try #require(parser.index(of: "z"))].value == .null)
        #expect(parser.index(of: "missing") == nil)
    }

    @Test func keepsTheRawTokenOfEachValue() throws {
        let line = #"{"id":"a\"b","n":  7 }"#
        let parser = try parse(line)
        let bytes = Array(line.utf8)
        let token = parser.fields[try #require(parser.index(of: "id"))].token
        #expect(String(decoding: bytes[token], as: UTF8.self) == #""a\"b""#)
    }

    @Test func decodesEscapes() throws {
        let parser = try parse(#"{"s":"q\" b\\ s\/ \b\f\n\r\t \u00e9 \u20AC \ud83d\ude00 é"}"#)
        #expect(string(parser, "s") == "q\" b\\ s/ \u{08}\u{0C}\n\r\t é € 😀 é")
    }

    @Test func escapedKeysMatchTheirDecodedName() throws {
        let parser = try parse(#"{"\u006fp":"x"}"#)
        #expect(string(parser, "op") == "x")
    }

    @Test(arguments: [
        ("0", 0), ("-0", 0), ("42", 42), ("-9223372036854775807", -9_223_372_036_854_775_807),
        ("9223372036854775807", Int.max),
    ])
    func parsesIntegers(_ text: String, _ value: Int) throws {
        let parser = try parse(#"{"n":\#(text)}"#)
        #expect(parser.fields[0].value == .number(value))
    }

    @Test(arguments: ["1.0", "1e2", "-1E-2", "0.5", "99999999999999999999"])
    func nonIntegersHaveNoIntegerValue(_ text: String) throws {
        let parser = try parse(#"{"n":\#(text)}"#)
        #expect(parser.fields[0].value == .number(nil))
    }

    @Test(arguments: [
        "{", "}", "[]", "\"x\"", "1", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{,}", "{\"a\" 1}", "{\"a\":1 \"b\":2}",
        "{\"a\":01}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":-}", "{\"a\":1e}", "{\"a\":+1}", "{\"a\":tru}",
        "{\"a\":nul}", "{\"a\":True}", "{\"a\":\"x}", "{\"a\":\"\\q\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\ud800\"}",
        "{\"a\":\"\\udc00\"}", "{\"a\":\"\\ud800\\u0041\"}", "{\"a\":1}x", "{\"a\":1}{}", "{a:1}", "{'a':1}",
        "{\"a\":\"\t\"}",
    ])
    func rejectsMalformedJSON(_ line: String) {
        #expect(throws: BatchError.invalidJSON) { try parse(line) }
    }

    @Test(arguments: [
        [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0x80],
    ])
    func rejectsInvalidUTF8InStrings(_ sequence: [UInt8]) {
        let parser = FlatJSONParser()
        let line = Array(#"{"a":""#.utf8) + sequence + Array(#""}"#.utf8)
        #expect(throws: BatchError.invalidJSON) { try parser.parse(line) }
    }

    @Test(arguments: [#"{"a":[1]}"#, #"{"a":{}}"#, #"{"a":{"b":1}}"#])
    func rejectsNestedValues(_ line: String) {
        #expect(throws: BatchError.unsupportedValue) { try parse(line) }
    }

    @Test func rejectsDuplicateKeys() {
        #expect(throws: BatchError.duplicateKey) { try parse(#"{"a":1,"b":2,"a":3}"#) }
        #expect(throws: BatchError.duplicateKey) { try parse(#"{"a":1,"\u0061":2}"#) }
    }

    /// Keys of every length up to 20 and of similar shape (the hash filter in front of the comparison must not
    /// hide a repeat, nor refuse distinct keys that share their length and first and last bytes).
    @Test(arguments: 1...20)
    func findsEveryRepeatAmongManyKeys(length: Int) throws {
        let keys = (0..<40).map { index in
            "k" + String(repeating: "_", count: max(0, length - 3)) + (index < 10 ? "0" : "") + String(index)
        }.map { String($0.suffix(length)) }
        let distinct = Array(Set(keys))
        let members = distinct.enumerated().map { #""\#($0.element)":\#($0.offset)"# }
        _ = try parse("{" + members.joined(separator: ",") + "}")
        for repeated in distinct {
            let line = "{" + (members + [#""\#(repeated)":null"#]).joined(separator: ",") + "}"
            #expect(throws: BatchError.duplicateKey) { _ = try parse(line) }
        }
    }

    @Test(arguments: ["", "  ", "\r", "\t \r"])
    func blankLinesAreEmpty(_ line: String) {
        #expect(throws: BatchError.emptyLine) { try parse(line) }
    }

    @Test func errorsGiveTheByteOffset() {
        do {
            _ = try parse(#"{"a":1,"b":x}"#)
            Issue.record("no error")
        } catch {
            #expect(error.message.hasSuffix("at byte 11"))
        }
    }

    @Test func reusesItsBuffersAcrossLines() throws {
        let parser = FlatJSONParser()
        try parser.parse(Array(#"{"a":"\u0041","b":2}"#.utf8))
        try parser.parse(Array(#"{"c":"x"}"#.utf8))
        #expect(parser.fields.count == 1)
        #expect(string(parser, "c") == "x")
        #expect(parser.index(of: "a") == nil)
    }
}
