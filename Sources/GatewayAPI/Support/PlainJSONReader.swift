import Foundation

/// Reads the plain JSON that readers and SDKs send — objects, strings of printable ASCII without escapes, numbers,
/// `null` — without Codable's generic machinery: `JSONDecoder` spends ~10 µs on a payment request, a few percent
/// of an authorization.
///
/// It is a fast path only. Every read answers nil (or false) for anything outside that subset — an escape, a
/// non-ASCII byte, a key repeated or unknown to the caller, a value the type would refuse — and the caller then
/// decodes the same bytes with `JSONDecoder`, so what is accepted, and every error, stay `JSONDecoder`'s.
package struct PlainJSONReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The value `read` reads from the whole of `data` (whitespace around it allowed), or nil.
    package static func read<Value>(_ data: Data, _ read: (inout PlainJSONReader) -> Value?) -> Value? {
        data.withUnsafeBytes { bytes in
            var reader = PlainJSONReader(bytes)
            guard let value = read(&reader) else { return nil }
            reader.skipWhitespace()
            return reader.offset == bytes.count ? value : nil
        }
    }

    /// Reads an object, handing `member` each key and the reader positioned at its value, which `member` must
    /// read; false when the object is not plain or `member` answers false.
    package mutating func object(_ member: (Key, inout PlainJSONReader) -> Bool) -> Bool {
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return false }
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return true }
        while true {
            guard let key = plainString() else { return false }
            skipWhitespace()
            guard take(UInt8(ascii: ":")), member(Key(bytes: key), &self) else { return false }
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return true }
            guard take(UInt8(ascii: ",")) else { return false }
            skipWhitespace()
        }
    }

    /// A plain string.
    package mutating func string() -> String? {
        plainString().map { String(decoding: $0, as: UTF8.self) }
    }

    /// A whole number in `Int`'s range, written without fraction or exponent (`-0` is left to `JSONDecoder`).
    package mutating func integer() -> Int? {
        skipWhitespace()
        let negative = take(UInt8(ascii: "-"))
        let start = offset
        var magnitude: UInt64 = 0
        while offset < bytes.count, case let digit = bytes[offset] &- UInt8(ascii: "0"), digit < 10 {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
            offset += 1
        }
        let count = offset - start
        // No digits, a leading zero, or a fraction or exponent: not this subset.
        guard count > 0, count == 1 || bytes[start] != UInt8(ascii: "0"), !atNumberContinuation else { return nil }
        if negative {
            guard magnitude != 0, magnitude <= UInt64(Int.max) + 1 else { return nil }
            return Int(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { return nil }
        return Int(magnitude)
    }

    /// A JSON number as the nearest `Double` (correctly rounded, as `JSONDecoder` reads it); nil when out of
    /// range.
    package mutating func double() -> Double? {
        skipWhitespace()
        let start = offset
        _ = take(UInt8(ascii: "-"))
        let integerStart = offset
        let integerDigits = digits()
        // JSON has no leading zeros (`0900`); JSONDecoder refuses them, so this reader does too.
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
        if take(UInt8(ascii: ".")) { guard digits() > 0 else { return nil } }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { return nil }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Reads `null` if it comes next.
    package mutating func null() -> Bool {
        skipWhitespace()
        guard bytes.count - offset >= 4, bytes[offset] == UInt8(ascii: "n"), bytes[offset + 1] == UInt8(ascii: "u"),
            bytes[offset + 2] == UInt8(ascii: "l"), bytes[offset + 3] == UInt8(ascii: "l")
        else { return false }
        offset += 4
        return true
    }

    /// Reads an array, calling `element` for each element; false when it is not plain or `element` answers false.
    package mutating func array(_ element: (inout PlainJSONReader) -> Bool) -> Bool {
        skipWhitespace()
        guard take(UInt8(ascii: "[")) else { return false }
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return true }
        while true {
            guard element(&self) else { return false }
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return true }
            guard take(UInt8(ascii: ",")) else { return false }
        }
    }

    /// An object key.
    package struct Key {
        fileprivate let bytes: UnsafeRawBufferPointer

        /// Whether the key is `name`.
        package func `is`(_ name: StaticString) -> Bool {
            name.utf8CodeUnitCount == bytes.count
                && memcmp(name.utf8Start, bytes.baseAddress!, bytes.count) == 0
        }
    }

    /// The keys an object has shown so far, to refuse a repeated one (which `JSONDecoder` resolves its own way).
    package struct SeenKeys {
        private var mask: UInt64 = 0

        package init() {}

        /// Marks key number `index` (0–63) as seen; false if it was already.
        package mutating func first(_ index: Int) -> Bool {
            let bit: UInt64 = 1 << UInt64(index)
            defer { mask |= bit }
            return mask & bit == 0
        }
    }

    // MARK: Scanning

    /// A string of printable ASCII without escapes, as bytes.
    private mutating func plainString() -> UnsafeRawBufferPointer? {
        skipWhitespace()
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                return UnsafeRawBufferPointer(rebasing: bytes[start..<offset - 1])
            }
            // An escape, a control character or a non-ASCII byte: JSONDecoder's to judge.
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            offset += 1
        }
        return nil
    }

    private mutating func digits() -> Int {
        let start = offset
        while offset < bytes.count, bytes[offset] &- UInt8(ascii: "0") < 10 { offset += 1 }
        return offset - start
    }

    private var atNumberContinuation: Bool {
        guard offset < bytes.count else { return false }
        let byte = bytes[offset]
        return byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }
}

extension PlainJSONReader {
    /// Reads a member's value into `slot` with `read`: false when `first` is false (a repeated key) or `read` finds
    /// no value.
    package mutating func value<Value>(
        _ slot: inout Value?, first: Bool, _ read: (inout PlainJSONReader) -> Value?
    ) -> Bool {
        guard first else { return false }
        slot = read(&self)
        return slot != nil
    }

    /// ``value(_:first:_:)`` for an optional member: `null` leaves `slot` nil, as `decodeIfPresent` does.
    package mutating func nullableValue<Value>(
        _ slot: inout Value?, first: Bool, _ read: (inout PlainJSONReader) -> Value?
    ) -> Bool {
        guard first else { return false }
        if null() { return true }
        slot = read(&self)
        return slot != nil
    }
}

/// A type `JSONDecoder` decodes that also has a reader for its plain JSON (see ``PlainJSONReader``).
package protocol PlainJSONDecodable: Decodable {
    /// The value of `data` when it is plain JSON this reader takes exactly as `JSONDecoder` would; nil otherwise.
    static func plainDecoded(from data: Data) -> Self?
}
