import ApplePay
import EMV
import Foundation
import Testing

/// The typed payload: each field's check, and the wire JSON both ways.
@Suite("Decrypted Apple Pay payload")
struct DecryptedPaymentTests {
    static let sample = PaymentTokenDecryptorErrorTests.samplePayload

    @Test("a 3DSecure payload types every field")
    func threeDSecure() throws {
        let payment = try DecryptedPayment(payload: Self.sample)
        #expect(payment.accountNumber.digits == Self.sample.applicationPrimaryAccountNumber)
        #expect(payment.expiry == (try ExpiryDate(year: 2029, month: 12)))
        #expect(payment.amount == Amount(minorUnits: 1234, currency: try #require(Currency(alphabeticCode: "EUR"))))
        #expect(payment.credential == .threeDSecure(onlinePaymentCryptogram: Array(0...19), eciIndicator: "7"))
    }

    @Test("an EMV payload with PIN data and multi-merchant responses types them")
    func emv() throws {
        var payload = Self.sample
        payload.paymentDataType = "EMV"
        payload.paymentData = .init(emvData: "nwIGAAAAAAEA", encryptedPINData: "0123456789ABCDEF")
        payload.authenticationResponses = [
            .init(merchantIdentifier: "merchant.b", authenticationData: "AQID", transactionAmount: 500)
        ]
        payload.merchantTokenIdentifier = "DNITHE302307275587012345"
        payload.merchantTokenMetadata = .object(["cardRefreshProfiles": .array([])])
        let payment = try DecryptedPayment(payload: payload)
        #expect(
            payment.credential
                == .emv(
                    emvData: [0x9F, 0x02, 0x06, 0, 0, 0, 0, 1, 0],
                    encryptedPINData: [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF]))
        #expect(payment.authenticationResponses.first?.authenticationData == [1, 2, 3])
        #expect(payment.authenticationResponses.first?.transactionAmount == 500)
        #expect(payment.merchantTokenIdentifier == "DNITHE302307275587012345")
        let again = try JSONDecoder().decode(PaymentPayload.self, from: JSONEncoder().encode(payload))
        #expect(again == payload)
    }

    @Test(
        "each invalid field is payloadMalformed",
        arguments: [
            ("applicationPrimaryAccountNumber", "12345"), ("applicationExpirationDate", "2912"),
            ("applicationExpirationDate", "29A231"), ("applicationExpirationDate", "291232"),
            ("currencyCode", "000"), ("currencyCode", "EUR"), ("deviceManufacturerIdentifier", "xyz"),
            ("paymentDataType", "3DS"),
        ])
    func invalidField(field: String, value: String) throws {
        var payload = Self.sample
        switch field {
        case "applicationPrimaryAccountNumber": payload.applicationPrimaryAccountNumber = value
        case "applicationExpirationDate": payload.applicationExpirationDate = value
        case "currencyCode": payload.currencyCode = value
        case "deviceManufacturerIdentifier": payload.deviceManufacturerIdentifier = value
        default: payload.paymentDataType = value
        }
        #expect(throws: ApplePayError.payloadMalformed) { _ = try DecryptedPayment(payload: payload) }
    }

    @Test("a missing cryptogram, a negative amount or non-hex PIN data is payloadMalformed")
    func invalidCredential() throws {
        var noCryptogram = Self.sample
        noCryptogram.paymentData = .init(emvData: "AQID")
        var negative = Self.sample
        negative.transactionAmount = -1
        var pin = Self.sample
        pin.paymentDataType = "EMV"
        pin.paymentData = .init(emvData: "AQID", encryptedPINData: "zz")
        for payload in [noCryptogram, negative, pin] {
            #expect(throws: ApplePayError.payloadMalformed) { _ = try DecryptedPayment(payload: payload) }
        }
    }
}
