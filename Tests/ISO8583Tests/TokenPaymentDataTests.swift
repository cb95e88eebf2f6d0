import Foundation
import ISO8583
import Testing

@Suite("Token payment data in fields 22 and 48")
struct TokenPaymentDataTests {
    static let cryptogram: [UInt8] = Array(0..<20).map { UInt8($0 * 7 + 1) }

    @Test("field 48 holds subelements 42 (ECI) and 43 (base64 cryptogram) and reads back")
    func roundTrip() throws {
        let data = TokenPaymentData(cryptogram: Self.cryptogram, eci: "07")
        let field48 = try #require(data.field48)
        let base64 = Data(Self.cryptogram).base64EncodedString()
        #expect(field48 == "420207" + "4328" + base64)
        #expect(TokenPaymentData(field48: field48) == data)
        // No ECI; unknown subelements are skipped.
        #expect(TokenPaymentData(field48: "9903abc4328" + base64) == TokenPaymentData(cryptogram: Self.cryptogram))
    }

    @Test(
        "a field 48 without a whole cryptogram subelement is not token payment data",
        arguments: ["", "42", "4202", "420207", "4328AAAA", "43xxAAAA", "4204AAAA", "4202A7" + "4304AAAA", "4304!!!!"])
    func malformed(field48: String) {
        #expect(TokenPaymentData(field48: field48) == nil)
    }

    @Test("a token 0100 encodes and decodes with the contactless specification; descriptions redact field 48")
    func message() throws {
        var message = ISO8583Message(mti: .authorizationRequest)
        message[.pan] = "4895370012345671"
        message[.amount] = "000000001234"
        try message.setTokenPaymentData(TokenPaymentData(cryptogram: Self.cryptogram, eci: "05"))
        #expect(message.isTokenPayment)
        #expect(message[.posEntryMode]?.text == "810")
        let encoded = try message.encoded(using: .contactless)
        let decoded = try ISO8583Message(decoding: encoded, using: .contactless)
        #expect(decoded.tokenPaymentData == TokenPaymentData(cryptogram: Self.cryptogram, eci: "05"))
        let base64 = Data(Self.cryptogram).base64EncodedString()
        #expect(!"\(decoded)".contains(base64))
        #expect(!"\(decoded.tokenPaymentData!)".contains(base64))
        #expect("\(decoded)".contains("48: <redacted"))
        var card = ISO8583Message(mti: .authorizationRequest)
        card[.posEntryMode] = "071"
        #expect(!card.isTokenPayment)
    }

    @Test("a cryptogram too long for a 2-digit subelement length is refused")
    func tooLong() {
        var message = ISO8583Message(mti: .authorizationRequest)
        #expect(throws: ISO8583Error.lengthExceedsMaximum) {
            try message.setTokenPaymentData(TokenPaymentData(cryptogram: Array(repeating: 1, count: 75)))
        }
    }
}
