import CryptoBatch
import Testing

@Suite struct FlatJSONParserTests {
    @Test func parsesFlatObject() throws {
        var parser = FlatJSONParser()
        try parser.parse(Array(#"{"op":"x","n":12,"b":true,"z":null}"#.utf8))
        #expect(parser.fields.count == 4)
    }
}
