import Crypto
import EMV
import Foundation
import GatewayAPI
import ReaderKernel
import Testing

/// A real tap: the Visa test card on the loopback, the kernel's authorization data sealed and opened.
@Suite struct LoopbackTapSealingTests {
    @Test func visaTapSealedAndOpenedKeepsFieldFiftyFive() async throws {
        let data = try await SealedCardDataFixture.visaTap()
        let key = P256.KeyAgreement.PrivateKey()
        let payload = CardDataPayload(
            deviceId: SealedCardDataFixture.deviceId, merchantId: SealedCardDataFixture.merchantId,
            createdAt: SealedCardDataFixture.createdAt, authorization: data)
        let sealed = try CardDataSealer(publicKey: key.publicKey, keyId: "psp-1").seal(payload)
        let wire = try JSONEncoder().encode(sealed)
        #expect(!String(decoding: wire, as: UTF8.self).contains(SealedCardDataFixture.visaPAN))

        let opened = try await SealedCardDataFixture.opener(["psp-1": key]).open(
            JSONDecoder().decode(SealedCardData.self, from: wire), merchantId: SealedCardDataFixture.merchantId,
            deviceId: SealedCardDataFixture.deviceId)
        let authorization = opened.authorization
        #expect(authorization.iccData == data.iccData)
        #expect(authorization.pan.digits == SealedCardDataFixture.visaPAN)
        #expect(authorization.track2 == data.track2)
        #expect(authorization.expiry == data.expiry)
        #expect(authorization.panSequenceNumber == data.panSequenceNumber)
        let field55 = try TLV.parse(authorization.iccData)
        #expect(field55.first(EMV.Tag.applicationCryptogram)?.value.count == 8)
    }
}
