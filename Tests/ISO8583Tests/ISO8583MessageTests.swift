import EMV
import Foundation
import ISO8583
import Testing

struct ISO8583MessageTests {
    static func authorizationRequest() -> ISO8583Message {
        var message = ISO8583Message(mti: .authorizationRequest)
        message[.pan] = "4761739001010119"
        message[.processingCode] = "000000"
        message[.amount] = "000000001000"
        message[.transmissionDateTime] = "1121113000"
        message[.systemTraceAuditNumber] = "123456"
        message[.localTime] = "113000"
        message[.expirationDate] = "2512"
        message[.posEntryMode] = "071"
        message[.cardSequenceNumber] = "001"
        message[.track2] = "4761739001010119D25122010000000000000"
        message[.retrievalReferenceNumber] = "000000123456"
        message[.terminalID] = "TERM0001"
        message[.merchantID] = "MERCHANT0000001"
        message[.currencyCode] = "978"
        message[.pinBlock] = .binary([0x04, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE])
        message.setICCData(bytes("9F2608A1B2C3D4E5F60708 9F360200 01"))
        return message
    }

    @Test(arguments: [Specification.default, .contactless])
    func roundTripsThroughBinarySpecifications(specification: Specification) throws {
        let message = Self.authorizationRequest()
        let encoded = try message.encoded(using: specification)
        #expect(Array(encoded.prefix(4)) == ascii("0100"))
        #expect(try ISO8583Message(decoding: encoded, using: specification) == message)
    }

    @Test func contactlessCarriesFormat4PINBlocks() throws {
        var message = Self.authorizationRequest()
        for length in [8, 16] {
            message[.pinBlock] = .binary((0..<length).map { UInt8($0 * 17 & 0xFF) })
            let encoded = try message.encoded(using: .contactless)
            #expect(try ISO8583Message(decoding: encoded, using: .contactless) == message)
        }
        message[.pinBlock] = .binary([UInt8](repeating: 0x44, count: 16))
        #expect(throws: ISO8583Error.lengthMismatch) { try message.encoded(using: .default) }
        message[.pinBlock] = .binary([UInt8](repeating: 0x44, count: 17))
        #expect(throws: ISO8583Error.lengthExceedsMaximum) { try message.encoded(using: .contactless) }
    }

    @Test func roundTripsThroughASCIISpecification() throws {
        var message = Self.authorizationRequest()
        // default_ascii carries binary fields as hex text.
        message[.pinBlock] = "04123456789ABCDE"
        message[.iccData] = .text("9F2608A1B2C3D4E5F60708")
        message[100] = "12345678901"
        let encoded = try message.encoded(using: .defaultASCII)
        let decoded = try ISO8583Message(decoding: encoded, using: .defaultASCII)
        #expect(decoded == message)
        #expect(decoded.fieldNumbers.last == 100)
        #expect(try decoded.iccData()?.first(EMV.Tag(rawValue: 0x9F26)) != nil)
    }

    @Test func packedSpecificationRoundTrips() throws {
        var message = ISO8583Message(mti: .reversalRequest)
        message[.pan] = "4761739001010119011"
        message[.processingCode] = "003000"
        message[4] = "000000001000"
        message[11] = "12345"
        message[.track2] = "4761739001010119D2512201"
        message[41] = "TERM0001"
        message[48] = "Données"
        message[.iccData] = .binary(Array(repeating: 0xAB, count: 300))
        message[60] = String(repeating: "x", count: 1200).asValue
        message[70] = "301"
        message[90] = "0100123456"
        let encoded = try message.encoded(using: packedSpecification)
        // Binary MTI, binary primary and EBCDIC secondary bitmap, then BCD LL of 19 nibbles and the PAN right-padded with F.
        #expect(Array(encoded.prefix(2)) == [0x04, 0x00])
        #expect(Array(encoded[26..<37]) == bytes("19 47 61 73 90 01 01 01 19 01 1F"))
        let decoded = try ISO8583Message(decoding: encoded, using: packedSpecification)
        #expect(decoded == message)
        #expect(try decoded.encoded(using: packedSpecification) == encoded)
    }

    @Test func subscriptsKeepFieldsSorted() {
        var message = ISO8583Message(mti: .authorizationResponse, fields: [39: "00", 2: "123"])
        message[128] = .binary([1])
        message[4] = "1"
        message[39] = "05"
        #expect(message.fieldNumbers == [2, 4, 39, 128])
        #expect(message[39]?.text == "05")
        message[2] = nil
        message[3] = nil
        #expect(message.fieldNumbers == [4, 39, 128])
    }

    @Test func mtiParts() throws {
        let mti = try #require(MessageTypeIndicator("0410"))
        #expect(mti == .reversalResponse)
        #expect(mti.version == .iso1987)
        #expect(mti.messageClass == .reversal)
        #expect(mti.function == .requestResponse)
        #expect(mti.origin == .acquirer)
        #expect(mti.response == nil)
        #expect(MessageTypeIndicator.authorizationRequest.response == .authorizationResponse)
        #expect(MessageTypeIndicator("01A0") == nil)
        #expect(MessageTypeIndicator("100") == nil)
        #expect(MessageTypeIndicator.financialRequest.description == "0200")
    }

    @Test func descriptionMasksCardData() throws {
        let message = Self.authorizationRequest()
        let texts = [
            message.description, message.debugDescription, String(reflecting: message),
            {
                var out = ""; dump(message, to: &out); return out
            }(),
        ]
        for text in texts {
            #expect(!text.contains("4761739001010119"))
            #expect(!text.contains("D2512"))
            #expect(!text.contains("0412") && !text.contains("123456789ABCDE"))
            #expect(!text.contains("9F26") && !text.contains("A1B2C3"))
        }
        #expect(message.description.contains("2: 476173******0119"))
        #expect(message.description.contains("35: <redacted 37>"))
        #expect(message.description.contains("55: <redacted"))
        #expect(message.description.contains("4: 000000001000"))
    }

    @Test func shortOrOddPANIsFullyRedacted() {
        let short = ISO8583Message(mti: .authorizationRequest, fields: [2: "1234567890"])
        #expect(short.description == "0100 {2: <redacted 10>}")
        let odd = ISO8583Message(mti: .authorizationRequest, fields: [2: "47617390010101=9"])
        #expect(!odd.description.contains("4761"))
    }

    @Test func errorsNeverCarryFieldValues() throws {
        var message = Self.authorizationRequest()
        message[.pan] = "4761739001010119999999"
        let error = try #require(throws: ISO8583Error.lengthExceedsMaximum) {
            try message.encoded(using: .default)
        }
        #expect(error.field == 2)
        #expect(!error.description.contains("4761739001"))
    }

    @Test func specificationRoundTripsAsPyisoJSON() throws {
        for specification in [Specification.default, .defaultASCII, .contactless, packedSpecification] {
            let json = try JSONEncoder().encode(specification)
            #expect(try JSONDecoder().decode(Specification.self, from: json) == specification)
        }
        #expect(Specification.default[field: 55]?.maximumLength == 255)
        #expect(Specification.contactless[field: 55]?.maximumLength == 999)
        #expect(Specification.contactless[field: 55]?.dataEncoding == .binary)
        #expect(Specification.contactless[field: 55]?.lengthPrefixBytes == 3)
        #expect(Specification.defaultASCII[field: 55]?.maximumLength == 510)
        #expect(Specification.default[field: 65] == nil)
        #expect(Specification.default.fieldNumbers.count == 126)
    }
}

extension String {
    fileprivate var asValue: ISO8583FieldValue { .text(self) }
}
