import Crypto
import EMV
import Foundation
import GatewayAPI
import Testing

/// Nothing the module prints, dumps or throws shows the PAN, track 2 or field 55.
@Suite struct CardDataLeakTests {
    let key = P256.KeyAgreement.PrivateKey()

    func secrets(_ payload: CardDataPayload) -> [String] {
        var secrets = [SealedCardDataFixture.visaPAN, payload.authorization.iccData.hexString]
        if let track2 = payload.authorization.track2 {
            secrets += [track2.bytes.hexString, track2.bytes.hexString.lowercased()]
        }
        return secrets
    }

    func expectClean(_ text: String, _ payload: CardDataPayload, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in secrets(payload) {
            #expect(!text.contains(secret), "leaks card data: \(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func descriptionsAndMirrorsShowTheMaskedPANOnly() throws {
        let payload = try SealedCardDataFixture.payload()
        let sealed = try CardDataSealer(publicKey: key.publicKey, keyId: "k1").seal(payload)
        for value in [payload as Any, payload.authorization, sealed] {
            var dumped = ""
            dump(value, to: &dumped)
            expectClean(dumped, payload)
            expectClean(String(describing: value), payload)
            expectClean(String(reflecting: value), payload)
        }
        #expect(String(describing: payload).contains("476173******0119"))
    }

    @Test func everyErrorIsClean() async throws {
        let payload = try SealedCardDataFixture.payload()
        let sealed = try CardDataSealer(publicKey: key.publicKey, keyId: "k1").seal(payload)
        let m = SealedCardDataFixture.merchantId
        let d = SealedCardDataFixture.deviceId
        var errors: [GatewayAPIError] = []
        func collect(_ opener: CardDataOpener, _ sealed: SealedCardData, merchant: String = m) async {
            do {
                _ = try await opener.open(sealed, merchantId: merchant, deviceId: d)
            } catch {
                errors.append(error)
            }
        }
        let store = InMemorySealedCardDataReplayStore()
        let opener = SealedCardDataFixture.opener(["k1": key], store: store)
        await collect(opener, sealed, merchant: "other")
        await collect(SealedCardDataFixture.opener(["k2": key]), sealed)
        await collect(opener, sealed.replacing(ciphertext: sealed.ciphertext.dropLast()))
        await collect(
            SealedCardDataFixture.opener(["k1": key], now: SealedCardDataFixture.createdAt.addingTimeInterval(61)),
            sealed)
        await collect(opener, sealed)  // opens
        await collect(opener, sealed)  // replayed
        #expect(
            Set(errors.map(\.code)) == [.forbidden, .cardDataInvalid, .cardDataExpired, .cardDataReplayed])
        for error in errors {
            expectClean(String(describing: error), payload)
            expectClean(String(reflecting: error), payload)
            var dumped = ""
            dump(error, to: &dumped)
            expectClean(dumped, payload)
        }
    }

    /// A bad Luhn digit, a bad expiry month, a track 2 without separator, field 55 that is not hex: each a
    /// `DecodingError` that quotes none of the values.
    @Test(arguments: [
        #"{"mode":"emv","iccData":"","pan":"4761739001010118"}"#,
        #"{"mode":"emv","iccData":"","pan":"4761739001010119","expiry":"3013"}"#,
        #"{"mode":"emv","iccData":"","pan":"4761739001010119","track2":"4761739001010119"}"#,
        #"{"mode":"emv","iccData":"4761739001010119ZZ","pan":"4761739001010119"}"#,
    ])
    func corruptCardValuesDoNotQuoteThemselves(json: String) throws {
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(CardAuthorizationData.self, from: Data(json.utf8))
        }
        for text in [error.map { String(describing: $0) } ?? "", error.map { String(reflecting: $0) } ?? ""] {
            #expect(!text.contains("47617390010101"), "\(text)")
        }
    }
}
