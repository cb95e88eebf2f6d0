/// Typed access to the arguments of one request, by the Python parameter names.
///
/// Every lookup marks its field as used, so that after the operation ran `checkAllUsed()` can reject arguments the
/// operation does not take — as Python rejects an unexpected keyword argument.
public struct BatchArguments {
    private let parser: FlatJSONParser
    private var used: UInt64

    /// Wraps the parsed request; the fields at `reserved` and `alsoReserved` (`op`, `id`) count as used.
    init(_ parser: FlatJSONParser, reserved: Int, alsoReserved: Int?) throws(BatchError) {
        guard parser.fields.count <= 64 else { throw BatchError(.unsupportedValue, "more than 64 fields") }
        self.parser = parser
        used = 1 << UInt64(reserved)
        if let alsoReserved { used |= 1 << UInt64(alsoReserved) }
    }

    /// A required byte string given as hex.
    public mutating func bytes(_ name: StaticString) throws(BatchError) -> [UInt8] {
        guard let bytes = try optionalBytes(name) else { throw Self.missing(name) }
        return bytes
    }

    /// An optional byte string given as hex; absent or null gives nil.
    public mutating func optionalBytes(_ name: StaticString) throws(BatchError) -> [UInt8]? {
        guard let range = try optionalStringRange(name) else { return nil }
        guard let bytes = Self.decodeHex(parser.bytes(range)) else {
            throw BatchError(.invalidArgument, "argument `\(name)` is not an even number of hex digits")
        }
        return bytes
    }

    /// A required string.
    public mutating func string(_ name: StaticString) throws(BatchError) -> String {
        guard let string = try optionalString(name) else { throw Self.missing(name) }
        return string
    }

    /// An optional string; absent or null gives nil.
    public mutating func optionalString(_ name: StaticString) throws(BatchError) -> String? {
        guard let range = try optionalStringRange(name) else { return nil }
        return String(decoding: parser.bytes(range), as: UTF8.self)
    }

    /// A required integer.
    public mutating func int(_ name: StaticString) throws(BatchError) -> Int {
        guard let value = try optionalInt(name) else { throw Self.missing(name) }
        return value
    }

    /// An optional integer; absent or null gives nil.
    public mutating func optionalInt(_ name: StaticString) throws(BatchError) -> Int? {
        switch lookup(name) {
        case nil, .null?: return nil
        case .number(let value?)?: return value
        case let value?: throw Self.wrongType(name, expected: "an integer", got: value)
        }
    }

    /// Throws for the first field no lookup asked for.
    public func checkAllUsed() throws(BatchError) {
        for (index, field) in parser.fields.enumerated() where used & (1 << UInt64(index)) == 0 {
            let name = String(decoding: parser.bytes(field.key), as: UTF8.self)
            throw BatchError(.unexpectedArgument, "unexpected argument `\(name)`")
        }
    }

    private mutating func optionalStringRange(_ name: StaticString) throws(BatchError) -> Range<Int>? {
        switch lookup(name) {
        case nil, .null?: return nil
        case .string(let range)?: return range
        case let value?: throw Self.wrongType(name, expected: "a string", got: value)
        }
    }

    private mutating func lookup(_ name: StaticString) -> JSONValue? {
        guard let index = parser.index(of: name) else { return nil }
        used |= 1 << UInt64(index)
        return parser.fields[index].value
    }

    private static func missing(_ name: StaticString) -> BatchError {
        BatchError(.missingArgument, "missing argument `\(name)`")
    }

    private static func wrongType(_ name: StaticString, expected: String, got value: JSONValue) -> BatchError {
        BatchError(.invalidArgument, "argument `\(name)` must be \(expected), not \(value.typeName)")
    }

    /// Decodes hex digits (either case, no separators); nil for an odd count or a non-hex character.
    static func decodeHex(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        return text.withUnsafeBufferPointer { digits -> [UInt8]? in
            var valid = true
            let bytes = [UInt8](unsafeUninitializedCapacity: digits.count / 2) { buffer, count in
                var index = 0
                while index < digits.count {
                    let high = hexNibble[Int(digits[index])]
                    let low = hexNibble[Int(digits[index + 1])]
                    if (high | low) & 0x80 != 0 {
                        valid = false
                        break
                    }
                    buffer[index / 2] = high << 4 | low
                    index += 2
                }
                count = valid ? digits.count / 2 : 0
            }
            return valid ? bytes : nil
        }
    }
}

/// Nibble values of the hex digits; 0xFF marks every other byte.
private let hexNibble: [UInt8] = (0...255).map { byte -> UInt8 in
    switch UInt8(byte) {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
    default: 0xFF
    }
}
