/// A strict parser for one JSON object whose values are all strings, numbers, booleans or null: the shape of a
/// batch request line.
///
/// Foundation's JSON decoders allocate a dictionary of boxed values per line; this parser instead fills two
/// buffers it keeps across lines — the fields, and a copy of the line followed by any string that needed
/// unescaping — so a line costs no allocation once the buffers have grown. It follows RFC 8259 exactly (escapes,
/// surrogate pairs, UTF-8, number grammar) and rejects nested values, duplicate keys and anything after the
/// closing brace.
///
/// The buffers are raw memory rather than arrays: appending a field or a byte to an `Array` checks its
/// uniqueness and capacity, and handing both arrays to the caller retained and released them, on every line.
/// A parser is a class because it owns that memory; use one per thread.
public final class FlatJSONParser {
    private var buffers = Buffers()

    /// Makes a parser with empty buffers.
    public init() {}

    deinit { buffers.deallocate() }

    /// The fields of the last parsed object, in their order on the line (a copy).
    public var fields: [JSONField] { Array(buffers.fieldBuffer) }

    /// Parses one line, replacing the previous object's fields.
    public func parse(_ line: UnsafeBufferPointer<UInt8>) throws(BatchError) {
        var parse = Parse(line: line, buffers: buffers)
        // Written back even when the line is malformed: the buffers may have grown.
        defer { buffers = parse.buffers }
        try parse.object()
    }

    /// Parses one line held in an array (a convenience for tests and small inputs).
    public func parse(_ line: [UInt8]) throws(BatchError) {
        try line.withUnsafeBufferPointer { (buffer) throws(BatchError) in try parse(buffer) }
    }

    /// The decoded bytes of a key or string value.
    public func bytes(_ range: Range<Int>) -> [UInt8] { Array(buffers.textBuffer[range]) }

    /// The index of the field named `key`, comparing decoded bytes.
    public func index(of key: StaticString) -> Int? {
        Self.index(of: key, in: buffers.fieldBuffer, text: buffers.textBuffer)
    }

    /// Calls `body` with the fields and the text they index into, without copying either; both are valid only
    /// until the next `parse`.
    public func withUnsafeBuffers<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<JSONField>, UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(buffers.fieldBuffer, buffers.textBuffer)
    }

    /// The index of the field named `key` among `fields`, whose keys are ranges of `text`, searching from
    /// `start` round to the end and then from the beginning.
    static func index(
        of key: StaticString,
        in fields: UnsafeBufferPointer<JSONField>,
        text: UnsafeBufferPointer<UInt8>,
        from start: Int = 0
    ) -> Int? {
        // A name literal's bytes straight from its pointer: through `withUTF8Buffer` the search was a closure
        // call per argument read.
        guard key.hasPointerRepresentation else {
            return key.withUTF8Buffer { index(of: $0, in: fields, text: text, from: start) }
        }
        let name = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        return index(of: name, in: fields, text: text, from: start)
    }

    @inline(__always)
    private static func index(
        of name: UnsafeBufferPointer<UInt8>,
        in fields: UnsafeBufferPointer<JSONField>,
        text: UnsafeBufferPointer<UInt8>,
        from start: Int
    ) -> Int? {
        let count = fields.count
        var position = start >= 0 && start < count ? start : 0
        for _ in 0..<count {
            let field = fields[position].key
            if field.count == name.count && equal(text, field, name) { return position }
            position = position + 1 == count ? 0 : position + 1
        }
        return nil
    }

    @inline(__always)
    fileprivate static func equal(
        _ text: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        _ other: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard let textBase = text.baseAddress, let otherBase = other.baseAddress else { return other.isEmpty }
        return equalBytes(textBase + range.lowerBound, otherBase, count: other.count)
    }
}

/// The parser's two growable buffers: fields, and text (the line's copy, then decoded strings).
private struct Buffers {
    var fields: UnsafeMutablePointer<JSONField>
    var fieldCapacity = 32
    var fieldCount = 0
    var text: UnsafeMutablePointer<UInt8>
    var textCapacity = 1024
    var textCount = 0

    init() {
        fields = .allocate(capacity: fieldCapacity)
        text = .allocate(capacity: textCapacity)
    }

    func deallocate() {
        fields.deallocate()
        text.deallocate()
    }

    var fieldBuffer: UnsafeBufferPointer<JSONField> { UnsafeBufferPointer(start: fields, count: fieldCount) }
    var textBuffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: text, count: textCount) }

    @inline(__always)
    mutating func append(_ field: JSONField) {
        if fieldCount == fieldCapacity {
            let larger = UnsafeMutablePointer<JSONField>.allocate(capacity: 2 * fieldCapacity)
            larger.moveInitialize(from: fields, count: fieldCount)
            fields.deallocate()
            fields = larger
            fieldCapacity *= 2
        }
        (fields + fieldCount).initialize(to: field)
        fieldCount += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserveText(bytes.count)
        if let base = bytes.baseAddress { (text + textCount).update(from: base, count: bytes.count) }
        textCount += bytes.count
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserveText(1)
        text[textCount] = byte
        textCount += 1
    }

    @inline(__always)
    private mutating func reserveText(_ count: Int) {
        guard textCount + count > textCapacity else { return }
        var capacity = textCapacity * 2
        while capacity < textCount + count { capacity *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        larger.update(from: text, count: textCount)
        text.deallocate()
        text = larger
        textCapacity = capacity
    }
}

/// One line's parse: the cursor and the buffers it fills, all in locals of the caller (no class property
/// access, hence no exclusivity check, per byte or field).
private struct Parse {
    var cursor: Cursor
    var buffers: Buffers

    init(line: UnsafeBufferPointer<UInt8>, buffers: Buffers) {
        cursor = Cursor(bytes: line)
        self.buffers = buffers
        self.buffers.fieldCount = 0
        // Strings without escapes are then ranges of this copy; only escaped ones are decoded after it.
        self.buffers.textCount = 0
        self.buffers.append(line)
    }

    mutating func object() throws(BatchError) {
        cursor.skipWhitespace()
        guard !cursor.atEnd else { throw BatchError(.emptyLine, "empty line") }
        guard cursor.peek == UInt8(ascii: "{") else {
            throw cursor.unexpected(expecting: "an object")
        }
        cursor.index += 1
        cursor.skipWhitespace()
        if cursor.peek == UInt8(ascii: "}") {
            cursor.index += 1
        } else {
            try parseMembers()
        }
        cursor.skipWhitespace()
        guard cursor.atEnd else { throw BatchError.malformed("trailing characters", at: cursor.index) }
    }

    private mutating func parseMembers() throws(BatchError) {
        var seenKeys: UInt64 = 0
        while true {
            guard cursor.peek == UInt8(ascii: "\"") else { throw cursor.unexpected(expecting: "a key") }
            let key = try parseString()
            // A 64-bit filter of the keys so far: only a possible repeat pays for comparing with every key.
            let bit: UInt64 = 1 << UInt64(keySignature(key) & 63)
            if seenKeys & bit != 0 { try checkUnique(key, at: cursor.index) }
            seenKeys |= bit
            cursor.skipWhitespace()
            guard cursor.peek == UInt8(ascii: ":") else { throw cursor.unexpected(expecting: "':'") }
            cursor.index += 1
            cursor.skipWhitespace()
            let start = cursor.index
            let value = try parseValue()
            buffers.append(JSONField(key: key, value: value, token: start..<cursor.index))
            cursor.skipWhitespace()
            switch cursor.peek {
            case UInt8(ascii: ","):
                cursor.index += 1
                cursor.skipWhitespace()
            case UInt8(ascii: "}"):
                cursor.index += 1
                return
            default:
                throw cursor.unexpected(expecting: "',' or '}'")
            }
        }
    }

    /// A cheap hash of a key: its length and first and last bytes.
    private func keySignature(_ key: Range<Int>) -> Int {
        guard !key.isEmpty else { return 0 }
        return key.count &* 7 &+ Int(buffers.text[key.lowerBound]) &* 3 &+ Int(buffers.text[key.upperBound - 1])
    }

    private func checkUnique(_ key: Range<Int>, at offset: Int) throws(BatchError) {
        let text = buffers.textBuffer
        let name = UnsafeBufferPointer(rebasing: text[key])
        let duplicate = buffers.fieldBuffer.contains { field in
            field.key.count == key.count && FlatJSONParser.equal(text, field.key, name)
        }
        if duplicate { throw BatchError(.duplicateKey, "duplicate key at byte \(offset)") }
    }

    private mutating func parseValue() throws(BatchError) -> JSONValue {
        guard let first = cursor.peek else { throw cursor.unexpected(expecting: "a value") }
        switch first {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try cursor.expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try cursor.expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try cursor.expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try cursor.parseNumber())
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            throw BatchError(.unsupportedValue, "nested object or array at byte \(cursor.index)")
        default:
            throw cursor.unexpected(expecting: "a value")
        }
    }

    /// Reads a string starting at its opening quote and returns its range in `text`: the range of the line's copy
    /// when it has no escapes (the usual case), else that of its decoded form appended after the copy.
    @inline(__always)
    private mutating func parseString() throws(BatchError) -> Range<Int> {
        let bytes = cursor.bytes
        let start = cursor.index + 1
        var index = start
        if let base = bytes.baseAddress {
            // Eight characters at a time: the first special byte's position comes straight from the mask, so a
            // plain string ends here without a byte loop (whose exit, at a random place in the last word, was a
            // mispredicted branch per string). Anything else is left to `parseString(from:start:)`, out of line so
            // that this common case is small enough to inline where keys and values are read.
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let special = Self.specialBytes(word)
                if special == 0 {
                    index += 8
                    continue
                }
                index += special.trailingZeroBitCount >> 3
                if bytes[index] == UInt8(ascii: "\"") {
                    cursor.index = index + 1
                    return start..<index
                }
                break
            }
        }
        return try parseString(from: index, start: start)
    }

    /// The rest of ``parseString()`` from `index`: the last few bytes of the line, escapes, non-ASCII text.
    @inline(never)
    private mutating func parseString(from index: Int, start: Int) throws(BatchError) -> Range<Int> {
        let bytes = cursor.bytes
        var index = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                cursor.index = index + 1
                return start..<index
            } else if byte == UInt8(ascii: "\\") {
                break
            } else if byte < 0x20 {
                throw BatchError.malformed("control character in string", at: index)
            } else if byte >= 0x80 {
                index = try Self.endOfUTF8Sequence(bytes, at: index)
            } else {
                index += 1
            }
        }
        guard index < bytes.count else { throw BatchError.malformed("unterminated string", at: index) }
        let decodedStart = buffers.textCount
        buffers.append(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        cursor.index = index
        while let byte = cursor.peek {
            switch byte {
            case UInt8(ascii: "\""):
                cursor.index += 1
                return decodedStart..<buffers.textCount
            case UInt8(ascii: "\\"):
                try parseEscape()
            case ..<0x20:
                throw BatchError.malformed("control character in string", at: cursor.index)
            case 0x80...:
                let end = try Self.endOfUTF8Sequence(bytes, at: cursor.index)
                buffers.append(UnsafeBufferPointer(rebasing: bytes[cursor.index..<end]))
                cursor.index = end
            default:
                buffers.append(byte)
                cursor.index += 1
            }
        }
        throw BatchError.malformed("unterminated string", at: cursor.index)
    }

    /// The high bit of each byte of `word` (first character in the low byte) that may be a quote, a backslash,
    /// a control character or non-ASCII (SWAR). Borrows make false positives only above a byte that really is
    /// one, so the lowest bit set marks the first special byte exactly; zero means none.
    @inline(__always)
    private static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let quoteZero = (quote &- ones) & ~quote
        let backslashZero = (backslash &- ones) & ~backslash
        let control = word &- ones &* 0x20
        return (quoteZero | backslashZero | control | word) & highs
    }

    private mutating func parseEscape() throws(BatchError) {
        let offset = cursor.index
        cursor.index += 1
        guard let escaped = cursor.next() else { throw BatchError.malformed("unterminated escape", at: offset) }
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffers.append(escaped)
        case UInt8(ascii: "b"): buffers.append(0x08)
        case UInt8(ascii: "f"): buffers.append(0x0C)
        case UInt8(ascii: "n"): buffers.append(0x0A)
        case UInt8(ascii: "r"): buffers.append(0x0D)
        case UInt8(ascii: "t"): buffers.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try cursor.hexQuad()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard cursor.next() == UInt8(ascii: "\\"), cursor.next() == UInt8(ascii: "u") else {
                    throw BatchError.malformed("unpaired surrogate", at: offset)
                }
                let low = try cursor.hexQuad()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw BatchError.malformed("unpaired surrogate", at: offset)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw BatchError.malformed("unpaired surrogate", at: offset)
            }
            appendUTF8(scalar)
        default:
            throw BatchError.malformed("invalid escape", at: offset)
        }
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            buffers.append(UInt8(scalar))
        case ..<0x800:
            buffers.append(0xC0 | UInt8(scalar >> 6))
            buffers.append(0x80 | UInt8(scalar & 0x3F))
        case ..<0x10000:
            buffers.append(0xE0 | UInt8(scalar >> 12))
            buffers.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            buffers.append(0x80 | UInt8(scalar & 0x3F))
        default:
            buffers.append(0xF0 | UInt8(scalar >> 18))
            buffers.append(0x80 | UInt8((scalar >> 12) & 0x3F))
            buffers.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            buffers.append(0x80 | UInt8(scalar & 0x3F))
        }
    }

    /// The end of the well-formed UTF-8 sequence at `start` (shortest form, no surrogates, at most U+10FFFF).
    private static func endOfUTF8Sequence(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) throws(BatchError) -> Int
    {
        let lead = bytes[start]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: throw BatchError.malformed("invalid UTF-8", at: start)
        }
        guard start + length <= bytes.count else { throw BatchError.malformed("invalid UTF-8", at: start) }
        let second = bytes[start + 1]
        guard second >= lower, second <= upper else { throw BatchError.malformed("invalid UTF-8", at: start) }
        for index in (start + 2)..<(start + length) where bytes[index] & 0xC0 != 0x80 {
            throw BatchError.malformed("invalid UTF-8", at: start)
        }
        return start + length
    }
}

/// One member of a flat JSON object.
public struct JSONField: Sendable, Hashable {
    /// The decoded key, as a range of `FlatJSONParser.text`.
    public let key: Range<Int>
    /// The value.
    public let value: JSONValue
    /// Where the value's JSON text sits on the line, so it can be echoed verbatim.
    public let token: Range<Int>
}

/// A JSON scalar value.
public enum JSONValue: Sendable, Hashable {
    /// A string, decoded, as a range of `FlatJSONParser.text`.
    case string(Range<Int>)
    /// A number; the associated value is set only for a plain integer (no fraction or exponent) that fits `Int`.
    case number(Int?)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// The JSON type's name, for messages.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .null: "null"
        }
    }
}

/// A read position on a line.
private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func next() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func unexpected(expecting what: String) -> BatchError {
        atEnd
            ? BatchError.malformed("unexpected end of line, expecting \(what)", at: index)
            : BatchError.malformed("unexpected character, expecting \(what)", at: index)
    }

    mutating func expectLiteral(_ literal: StaticString) throws(BatchError) {
        let start = index
        let matches = literal.withUTF8Buffer { expected in
            guard index + expected.count <= bytes.count else { return false }
            for (offset, byte) in expected.enumerated() where bytes[index + offset] != byte { return false }
            return true
        }
        guard matches else { throw BatchError.malformed("invalid literal", at: start) }
        index += literal.utf8CodeUnitCount
    }

    mutating func hexQuad() throws(BatchError) -> UInt32 {
        let start = index
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = next(), let nibble = Self.hexValue(byte) else {
                throw BatchError.malformed("invalid \\u escape", at: start)
            }
            value = value << 4 | UInt32(nibble)
        }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Parses a number by RFC 8259's grammar; returns its value when it is a plain integer that fits `Int`.
    mutating func parseNumber() throws(BatchError) -> Int? {
        let start = index
        let negative = peek == UInt8(ascii: "-")
        if negative { index += 1 }
        guard let first = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw BatchError.malformed("invalid number", at: start)
        }
        var value: Int? = 0
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            // Up to 18 digits cannot overflow: plain arithmetic (an id per line); then checked, digit by digit.
            var plain = 0
            let plainEnd = min(bytes.count, index + 18)
            while index < plainEnd, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
                plain = plain &* 10 &+ Int(digit)
                index += 1
            }
            value = plain
            while let digit = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) {
                if let current = value {
                    let (times10, overflow1) = current.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
                    value = overflow1 || overflow2 ? nil : sum
                }
                index += 1
            }
        }
        var integral = true
        if peek == UInt8(ascii: ".") {
            integral = false
            index += 1
            try skipDigits(numberStart: start)
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            integral = false
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            try skipDigits(numberStart: start)
        }
        if let digit = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) {
            throw BatchError.malformed("invalid number", at: start)  // a leading zero followed by digits
        }
        guard integral, let magnitude = value else { return nil }
        return negative ? -magnitude : magnitude
    }

    private mutating func skipDigits(numberStart: Int) throws(BatchError) {
        let start = index
        while let digit = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) { index += 1 }
        guard index > start else { throw BatchError.malformed("invalid number", at: numberStart) }
    }
}
