import ISO8583

/// A dialect exercising what the shipped specs do not: binary MTI, BCD and binary length prefixes, packed numeric
/// fields with left and right pads, EBCDIC text, LLLLVAR. scripts/iso8583_differential.py defines the same dialect
/// for pyiso8583 (`packed`).
let packedSpecification = Specification(
    name: "packed", messageTypeEncoding: .binary, primaryBitmapEncoding: .binary, secondaryBitmapEncoding: .ebcdic,
    fields: [
        2: FieldSpecification(
            name: "PAN", dataEncoding: .binary, lengthPrefixBytes: 1, lengthEncoding: .bcd, maximumLength: 19,
            lengthUnit: .nibbles, rightPad: 0xF, content: .numeric),
        3: FieldSpecification(
            name: "Processing code", dataEncoding: .binary, lengthPrefixBytes: 0, maximumLength: 6,
            lengthUnit: .nibbles, content: .numeric),
        4: .fixed("Amount", length: 12, encoding: .ebcdic, content: .numeric),
        11: FieldSpecification(
            name: "STAN", dataEncoding: .binary, lengthPrefixBytes: 0, maximumLength: 5, lengthUnit: .nibbles,
            leftPad: 0, content: .numeric),
        35: FieldSpecification(
            name: "Track 2", dataEncoding: .binary, lengthPrefixBytes: 1, lengthEncoding: .binary, maximumLength: 37,
            lengthUnit: .nibbles, rightPad: 0xF),
        41: .fixed("Terminal", length: 8, encoding: .ebcdic),
        48: .variable(
            "Additional data", prefixBytes: 3, lengthEncoding: .ebcdic, maximumLength: 999, encoding: .ebcdic),
        55: .variable("ICC data", prefixBytes: 2, lengthEncoding: .binary, maximumLength: 999, encoding: .binary),
        60: .variable("Private", prefixBytes: 4, lengthEncoding: .ascii, maximumLength: 9999),
        70: .fixed("Network management code", length: 3, content: .numeric),
        90: .variable("Original data", prefixBytes: 2, lengthEncoding: .bcd, maximumLength: 42, encoding: .ascii),
    ])

/// Bytes from hex text written in tests (spaces allowed).
func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8.filter { $0 != UInt8(ascii: " ") })
    var result: [UInt8] = []
    var index = 0
    while index + 1 < digits.count {
        let pair = String(decoding: digits[index..<index + 2], as: UTF8.self)
        result.append(UInt8(pair, radix: 16) ?? 0)
        index += 2
    }
    return result
}

/// ASCII bytes of a string written in tests.
func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
