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

    @Test func corruptCardValuesDoNotQuoteThemselves() throws {
        let json = #"{"mode":"emv","iccData":"","pan":"4761739001010118"}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(CardAuthorizationData.self, from: Data(json.utf8))
        }
        do {
            _ = try JSONDecoder().decode(CardAuthorizationData.self, from: Data(json.utf8))
        } catch {
            #expect(!String(describing: error).contains("4761739001010118"))
        }
    }
}
