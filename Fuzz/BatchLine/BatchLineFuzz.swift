// libFuzzer target for the JSON lines of `tap crypto batch` (FlatJSONParser): any bytes as a line. Besides crashes,
// it checks the parser against Foundation's JSONSerialization: a line the parser takes is a JSON object to
// JSONSerialization too, with the same keys, the same decoded strings, booleans, nulls and integers. Compiled by
// scripts/test.d/30-fuzz.sh with the parser's files; seeded with request lines of the differential step.
import Foundation

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = Array(UnsafeBufferPointer(start: data, count: size))
    let parser = FlatJSONParser()
    guard (try? parser.parse(line)) != nil else { return 0 }
    let fields = parser.fields
    // RFC 8259 leaves the range of numbers to implementations: JSONSerialization refuses 1E400, the parser (which
    // reads only plain integers' values) takes it. Compare the rest with those numbers written as 0.
    let object =
        (try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        ?? (try? JSONSerialization.jsonObject(with: Data(zeroingNumbers(line, fields))) as? [String: Any])
    guard let object else { fatalError("invariant failed: the parser took a line that is not a JSON object") }
    require(fields.count == object.count, "the parser and JSONSerialization count different members")
    for field in fields {
        let key = String(decoding: parser.bytes(field.key), as: UTF8.self)
        guard let other = object[key] else { fatalError("invariant failed: a key JSONSerialization does not have") }
        switch field.value {
        case .string(let range):
            require(other as? String == String(decoding: parser.bytes(range), as: UTF8.self), "a string differs")
        case .bool(let value):
            require((other as? NSNumber)?.boolValue == value && !(other is String), "a boolean differs")
        case .null:
            require(other is NSNull, "a null differs")
        case .number(let integer?):
            require((other as? NSNumber)?.int64Value == Int64(integer), "an integer differs")
        case .number(nil):
            require(other is NSNumber, "a number differs")
        }
    }
    return 0
}

private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant failed: \(message())") }
}

/// `line` with the text of every number value the parser reads no integer from replaced by `0`.
private func zeroingNumbers(_ line: [UInt8], _ fields: [JSONField]) -> [UInt8] {
    var result = line
    for field in fields.reversed() {
        if case .number(nil) = field.value { result.replaceSubrange(field.token, with: [UInt8(ascii: "0")]) }
    }
    return result
}
