import Foundation

/// Checks that request bytes are JSON as RFC 8259 defines it, before a lenient decoder reads them: Foundation's
/// `JSONDecoder` takes `{"a": 1,}`, and the API promises to refuse what is not JSON. It also refuses `null`: the API
/// leaves out an optional field that has no value, and a decoder would read an explicit `null` as absent, so a body
/// the document calls invalid would pass.
///
/// One pass over the bytes, nesting capped at ``maximumDepth``; only the syntax is checked, the decoder reads the
/// values. Errors give the byte offset, never the bytes.
enum StrictJSON {
    /// Deeper nesting than any API body has.
    static let maximumDepth = 64

    /// What is wrong, and where.
    struct Failure: Error {
        let message: String
    }

    /// Throws unless `data` is one JSON value with optional whitespace around it.
    static func validate(_ data: Data) throws(Failure) {
        let failure = data.withUnsafeBytes { (buffer) -> Failure? in
            var reader = Reader(bytes: buffer.bindMemory(to: UInt8.self))
            do throws(Failure) {
                reader.skipWhitespace()
                try reader.value(depth: 0)
                reader.skipWhitespace()
                guard reader.index == reader.bytes.count else { throw reader.failure("text after the value") }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func failure(_ what: String) -> Failure { Failure(message: "\(what) at byte \(index)") }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
            guard current == byte else { throw failure("expected \(what)") }
            index += 1
        }

        mutating func value(depth: Int) throws(Failure) {
            guard depth < StrictJSON.maximumDepth else {
                throw failure("nesting deeper than \(StrictJSON.maximumDepth)")
            }
            guard let byte = current else { throw failure("unexpected end") }
            switch byte {
            case UInt8(ascii: "{"): try object(depth: depth)
            case UInt8(ascii: "["): try array(depth: depth)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): throw failure("null (leave the field out)")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw failure("unexpected character")
            }
        }

        mutating func object(depth: Int) throws(Failure) {
            try elements(closing: UInt8(ascii: "}"), what: "'}'") { (reader) throws(Failure) in
                guard reader.current == UInt8(ascii: "\"") else { throw reader.failure("expected a member name") }
                try reader.string()
                reader.skipWhitespace()
                try reader.expect(UInt8(ascii: ":"), "':'")
                reader.skipWhitespace()
                try reader.value(depth: depth + 1)
            }
        }

        mutating func array(depth: Int) throws(Failure) {
            try elements(closing: UInt8(ascii: "]"), what: "']'") { (reader) throws(Failure) in
                try reader.value(depth: depth + 1)
            }
        }

        /// After an opening bracket: nothing, or `element`s separated by commas, then `closing`.
        mutating func elements(
            closing: UInt8, what: String, _ element: (inout Reader) throws(Failure) -> Void
        ) throws(Failure) {
            index += 1
            skipWhitespace()
            if current == closing {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                try element(&self)
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(closing, "',' or \(what)")
                return
            }
        }

        mutating func string() throws(Failure) {
            index += 1
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return
                case UInt8(ascii: "\\"):
                    guard let escaped = current else { throw failure("unexpected end") }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        for _ in 0..<4 {
                            guard let digit = current, digit.isHexDigit else { throw failure("bad \\u escape") }
                            index += 1
                        }
                    default: throw failure("bad escape")
                    }
                case 0x00..<0x20: throw failure("control character in a string")
                default: continue
                }
            }
            throw failure("unterminated string")
        }

        mutating func literal(_ word: StaticString) throws(Failure) {
            let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard bytes.count - index >= text.count, zip(bytes[index...], text).allSatisfy({ $0 == $1 }) else {
                throw failure("unexpected word")
            }
            index += text.count
        }

        mutating func number() throws(Failure) {
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() > 0 else { throw failure("bad number") }
            }
            if current == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw failure("bad number") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw failure("bad number") }
            }
        }

        /// Skips decimal digits; returns how many.
        mutating func digits() -> Int {
            let start = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - start
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
