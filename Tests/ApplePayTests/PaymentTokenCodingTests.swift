import ApplePay
import Foundation
import Testing

@Suite("Apple Pay token JSON")
struct PaymentTokenCodingTests {
    @Test("each real token's paymentData decodes, names a known version and round-trips unchanged", arguments: [
        "gala-2021", "sepuka-2019",
    ])
    func realTokenDecodes(folder: String) throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(folder)/token", withExtension: "json"))
        let paymentData = try JSONDecoder().decode(PaymentData.self, from: Data(contentsOf: url))
        #expect(PaymentData.Version(rawValue: paymentData.version) == .ecV1)
        #expect(paymentData.header.ephemeralPublicKey != nil)
        #expect(paymentData.header.wrappedKey == nil)
        let again = try JSONDecoder().decode(PaymentData.self, from: JSONEncoder().encode(paymentData))
        #expect(again == paymentData)
    }
}
