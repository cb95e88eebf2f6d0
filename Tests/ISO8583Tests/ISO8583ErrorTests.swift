import ISO8583
import Testing

/// Every error code, with the offset and field it names.
struct ISO8583ErrorTests {
    static func decodeError(_ raw: [UInt8], _ specification: Specification) -> ISO8583Error? {
        do {
            _ = try ISO8583Message(decoding: raw, using: specification)
            return nil
        } catch {
            return error
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let raw: [UInt8]
        let specification: Specification
        let error: ISO8583Error
        let offset: Int?
        let field: Int?
        var testDescription: String { name }
    }

    static let zeros8 = [UInt8](repeating: 0, count: 8)

    static let decodeCases: [Case] = [
        Case(
            name: "MTI short", raw: ascii("010"), specification: .defaultASCII, error: .truncatedMTI, offset: 0,
            field: 0),
        Case(
            name: "binary MTI short", raw: [0x01], specification: packedSpecification, error: .truncatedMTI, offset: 0,
            field: 0),
        Case(
            name: "MTI not digits", raw: ascii("01A04000000000000000"), specification: .defaultASCII,
            error: .invalidMTI,
            offset: 0, field: 0),
        Case(
            name: "binary MTI nibble over 9", raw: [0x01, 0xA0] + zeros8, specification: packedSpecification,
            error: .invalidMTI, offset: 0, field: 0),
        Case(
            name: "primary bitmap short", raw: ascii("0100") + [0x40, 0], specification: .default,
            error: .truncatedBitmap, offset: 4, field: nil),
        Case(
            name: "secondary bitmap short", raw: ascii("0100") + [0x80] + zeros8.dropFirst() + [0, 1],
            specification: .default, error: .truncatedBitmap, offset: 12, field: 1),
        Case(
            name: "text bitmap not hex", raw: ascii("01004G00000000000000"), specification: .defaultASCII,
            error: .invalidBitmap, offset: 4, field: nil),
        Case(
            name: "empty secondary bitmap", raw: ascii("0100") + [0x80] + zeros8.dropFirst() + zeros8,
            specification: .default, error: .secondaryBitmapInconsistent, offset: 12, field: 1),
        Case(
            name: "bit 1 without a secondary bitmap in the spec", raw: ascii("0100") + [0x80] + zeros8.dropFirst(),
            specification: Specification(
                name: "primary only", messageTypeEncoding: .ascii, primaryBitmapEncoding: .binary,
                secondaryBitmapEncoding: nil, fields: [:]),
            error: .secondaryBitmapInconsistent, offset: 4, field: 1),
        Case(
            name: "bit 65 (pyiso8583's tertiary bitmap)",
            raw: ascii("0100") + [0x80] + zeros8.dropFirst() + [0x80] + zeros8.dropFirst() + zeros8,
            specification: .default, error: .fieldNotInSpecification, offset: 12, field: 65),
        Case(
            name: "bit for an undefined field", raw: [0x01, 0x00, 0x00, 0x40] + zeros8.dropFirst(2),
            specification: packedSpecification, error: .fieldNotInSpecification, offset: 2, field: 10),
        Case(
            name: "LL prefix short", raw: ascii("020040000000000000001"), specification: .defaultASCII,
            error: .truncatedLength, offset: 20, field: 2),
        Case(
            name: "LL prefix not digits", raw: ascii("02004000000000000000 1123"), specification: .defaultASCII,
            error: .invalidLength, offset: 20, field: 2),
        Case(
            name: "BCD prefix nibble over 9", raw: [0x02, 0x00, 0x40] + zeros8.dropFirst() + [0x1A],
            specification: packedSpecification, error: .invalidLength, offset: 10, field: 2),
        Case(
            name: "LL over maximum", raw: ascii("020040000000000000002012345678901234567890"),
            specification: .defaultASCII, error: .lengthExceedsMaximum, offset: 20, field: 2),
        Case(
            name: "field short", raw: ascii("0200400000000000000010123456"), specification: .defaultASCII,
            error: .truncatedField, offset: 22, field: 2),
        Case(
            name: "fixed field short", raw: ascii("0200200000000000000012345"), specification: .defaultASCII,
            error: .truncatedField, offset: 20, field: 3),
        Case(
            name: "numeric field with a letter", raw: ascii("020020000000000000001234A6"), specification: .defaultASCII,
            error: .nonNumeric, offset: 20, field: 3),
        Case(
            name: "byte over 0x7F in ASCII", raw: ascii("02100000000002000000") + [0x30, 0xC3],
            specification: .defaultASCII, error: .invalidCharacter, offset: 20, field: 39),
        Case(
            name: "odd packed field without its pad",
            raw: [0x02, 0x00, 0x40] + zeros8.dropFirst() + [0x03, 0x12, 0x34],
            specification: packedSpecification, error: .invalidPadding, offset: 11, field: 2),
        Case(
            name: "trailing byte", raw: ascii("021000000000020000000") + ascii("5X"), specification: .defaultASCII,
            error: .trailingBytes, offset: 22, field: nil),
    ]

    @Test(arguments: decodeCases)
    func decodeErrors(testCase: Case) {
        let error = Self.decodeError(testCase.raw, testCase.specification)
        #expect(error == testCase.error)
        #expect(error?.offset == testCase.offset)
        #expect(error?.field == testCase.field)
    }

    @Test func encodeErrors() {
        func failure(_ fields: [Int: ISO8583FieldValue], _ specification: Specification = .default) -> ISO8583Error? {
            do {
                _ = try ISO8583Message(mti: .authorizationRequest, fields: fields).encoded(using: specification)
                return nil
            } catch {
                return error
            }
        }
        #expect(failure([1: "x"]) == .invalidFieldNumber)
        #expect(failure([129: "x"]) == .invalidFieldNumber)
        #expect(failure([65: .binary(Self.zeros8)]) == .fieldNotInSpecification)
        #expect(failure([3: "12345"]) == .lengthMismatch)
        #expect(failure([2: "12345678901234567890"]) == .lengthExceedsMaximum)
        #expect(failure([55: .binary([UInt8](repeating: 0, count: 256))]) == .lengthExceedsMaximum)
        #expect(failure([55: .binary([UInt8](repeating: 0, count: 256))], .contactless) == nil)
        #expect(failure([3: "00A000"]) == .nonNumeric)
        #expect(failure([41: "TERMé001"]) == .invalidCharacter)
        #expect(failure([41: .binary(Self.zeros8)]) == .invalidValue)
        #expect(failure([52: "not hex!not hex!"]) == .invalidValue)
        #expect(failure([55: "ABC"]) == .invalidValue)
        #expect(
            failure(
                [66: "1"],
                Specification(
                    name: "primary only", messageTypeEncoding: .ascii, primaryBitmapEncoding: .binary,
                    secondaryBitmapEncoding: nil, fields: [66: .fixed("x", length: 1)])) == .secondaryBitmapInconsistent
        )
        #expect(
            failure(
                [2: "12345"],
                {
                    var specification = packedSpecification
                    specification[field: 2]?.rightPad = nil
                    return specification
                }()) == .invalidPadding)
        #expect(failure([2: "1234A"], packedSpecification) == .nonNumeric)
        // A three-digit prefix cannot say 1000 even when the maximum allows it.
        #expect(
            failure(
                [60: String(repeating: "x", count: 1000).value],
                {
                    var specification = Specification.defaultASCII
                    specification[field: 60]?.maximumLength = 5000
                    return specification
                }()) == .lengthExceedsMaximum)
    }

    @Test func descriptionNamesFieldAndOffset() {
        let error = Self.decodeError(ascii("0200400000000000000010123456"), .defaultASCII)
        #expect(error?.description.hasPrefix("ISO8583Error.truncatedField (field 2) at offset 22: ") == true)
    }
}

extension String {
    fileprivate var value: ISO8583FieldValue { .text(self) }
}
