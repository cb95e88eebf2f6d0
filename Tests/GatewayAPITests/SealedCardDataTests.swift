import Crypto
import EMV
import Foundation
import GatewayAPI
import Testing

@Suite struct SealedCardDataTests {
    let key = P256.KeyAgreement.PrivateKey()

    var sealer: CardDataSealer { CardDataSealer(publicKey: key.publicKey, keyId: "psp-2026-11") }
    var keys: [String: P256.KeyAgreement.PrivateKey] { ["psp-2026-11": key] }

    @Test func roundTripThroughJSON() async throws {
        let payload = try SealedCardDataFixture.payload()
        let sealed = try sealer.seal(payload)
        #expect(sealed.encapsulatedKey.count == 65)
        let json = try JSONEncoder().encode(sealed)
        let decoded = try JSONDecoder().decode(SealedCardData.self, from: json)
        #expect(decoded == sealed)
        let opened = try await SealedCardDataFixture.opener(keys).open(
            decoded, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
        #expect(opened == payload)
        #expect(opened.createdAt == payload.createdAt)
    }

    @Test func twoSealsOfOnePayloadShareNothing() throws {
        let payload = try SealedCardDataFixture.payload()
        let first = try sealer.seal(payload)
        let second = try sealer.seal(payload)
        #expect(first.encapsulatedKey != second.encapsulatedKey)
        #expect(first.ciphertext != second.ciphertext)
    }

    @Test func secondOpenIsReplayed() async throws {
        let sealed = try sealer.seal(try SealedCardDataFixture.payload())
        let opener = SealedCardDataFixture.opener(keys)
        _ = try await opener.open(
            sealed, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
        await #expect(throws: GatewayAPIError.cardDataReplayed) {
            try await opener.open(
                sealed, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
        }
    }

    @Test func checkOpensWithoutRecording() async throws {
        let payload = try SealedCardDataFixture.payload()
        let sealed = try sealer.seal(payload)
        let opener = SealedCardDataFixture.opener(keys)
        let ids = (SealedCardDataFixture.merchantId, SealedCardDataFixture.deviceId)
        #expect(try opener.check(sealed, merchantId: ids.0, deviceId: ids.1) == payload)
        #expect(try opener.check(sealed, merchantId: ids.0, deviceId: ids.1) == payload)
        // Checking spent nothing: the read still opens (once).
        #expect(try await opener.open(sealed, merchantId: ids.0, deviceId: ids.1) == payload)
        #expect(throws: GatewayAPIError.forbidden) { try opener.check(sealed, merchantId: "other", deviceId: ids.1) }
    }

    @Test(arguments: [60.0, 0.0, -5.0]) func opensWithinTheWindow(age: Double) async throws {
        let sealed = try sealer.seal(try SealedCardDataFixture.payload())
        let opener = SealedCardDataFixture.opener(keys, now: SealedCardDataFixture.createdAt.addingTimeInterval(age))
        _ = try await opener.open(
            sealed, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
    }

    @Test func olderThanSixtySecondsIsExpiredAndNotBurned() async throws {
        let sealed = try sealer.seal(try SealedCardDataFixture.payload())
        let store = InMemorySealedCardDataReplayStore()
        let opener = SealedCardDataFixture.opener(
            keys, now: SealedCardDataFixture.createdAt.addingTimeInterval(60.5), store: store)
        await #expect(throws: GatewayAPIError.cardDataExpired) {
            try await opener.open(
                sealed, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
        }
        #expect(await store.count == 0)
    }

    @Test func beyondTheClockSkewIsInvalid() async throws {
        let sealed = try sealer.seal(try SealedCardDataFixture.payload())
        let opener = SealedCardDataFixture.opener(keys, now: SealedCardDataFixture.createdAt.addingTimeInterval(-6))
        await #expect(throws: GatewayAPIError.cardDataInvalid) {
            try await opener.open(
                sealed, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
        }
    }

    @Test(arguments: [
        ("merchant_0002", SealedCardDataFixture.deviceId), (SealedCardDataFixture.merchantId, "device_2"),
    ])
    func anotherCallerIsForbiddenAndCannotBurnTheRead(merchantId: String, deviceId: String) async throws {
        let sealed = try sealer.seal(try SealedCardDataFixture.payload())
        let opener = SealedCardDataFixture.opener(keys)
        await #expect(throws: GatewayAPIError.forbidden) {
            try await opener.open(sealed, merchantId: merchantId, deviceId: deviceId)
        }
        _ = try await opener.open(
            sealed, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
    }

    /// Moving the envelope to another merchant, device or read id (to pass the caller check or dodge the replay
    /// store) breaks the authenticated data.
    @Test(arguments: ["merchant", "device", "read"])
    func swappedIdentifiersAreInvalid(field: String) async throws {
        let s = try sealer.seal(try SealedCardDataFixture.payload())
        let merchant = field == "merchant" ? "merchant_0002" : s.merchantId
        let device = field == "device" ? "device_2" : s.deviceId
        let swapped = SealedCardData(
            keyId: s.keyId, readId: field == "read" ? UUID() : s.readId, deviceId: device, merchantId: merchant,
            encapsulatedKey: s.encapsulatedKey, ciphertext: s.ciphertext)
        let store = InMemorySealedCardDataReplayStore()
        await #expect(throws: GatewayAPIError.cardDataInvalid) {
            try await SealedCardDataFixture.opener(keys, store: store).open(
                swapped, merchantId: merchant, deviceId: device)
        }
        #expect(await store.count == 0)
    }

    /// Seals `plaintext` the way a hostile or buggy reader could: its own HPKE context, `header`'s ids as AAD.
    func handSeal(_ plaintext: Data, header: SealedCardData, info: String = SealedCardData.protocolInfo) throws
        -> SealedCardData
    {
        var sender = try HPKE.Sender(
            recipientKey: key.publicKey, ciphersuite: CardDataSealer.ciphersuite, info: Data(info.utf8))
        let ciphertext = try sender.seal(plaintext, authenticating: header.authenticatedData)
        return header.replacing(encapsulatedKey: sender.encapsulatedKey, ciphertext: ciphertext)
    }

    func header(for payload: CardDataPayload, merchantId: String? = nil) -> SealedCardData {
        SealedCardData(
            keyId: "psp-2026-11", readId: payload.readId, deviceId: payload.deviceId,
            merchantId: merchantId ?? payload.merchantId, encapsulatedKey: Data(), ciphertext: Data())
    }

    func plaintext(_ payload: CardDataPayload) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return try encoder.encode(payload)
    }

    /// An authentic envelope whose clear ids disagree with the payload's is refused.
    @Test func payloadIdentifiersMustMatchTheEnvelope() async throws {
        let payload = try SealedCardDataFixture.payload()
        let other = CardDataPayload(
            readId: payload.readId, deviceId: payload.deviceId, merchantId: "merchant_0002",
            createdAt: payload.createdAt, authorization: payload.authorization)
        let hostile = try handSeal(plaintext(other), header: header(for: payload))
        await #expect(throws: GatewayAPIError.cardDataInvalid) {
            try await SealedCardDataFixture.opener(keys).open(
                hostile, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
        }
        // The same hand sealing with matching ids opens: the refusal above is the id check, not the sealing.
        let honest = try handSeal(plaintext(payload), header: header(for: payload))
        _ = try await SealedCardDataFixture.opener(keys).open(
            honest, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
    }

    @Test func malformedPlaintextIsInvalid() async throws {
        let payload = try SealedCardDataFixture.payload()
        let sealed = try handSeal(
            Data("{\"pan\":\"\(SealedCardDataFixture.visaPAN)\"}".utf8), header: header(for: payload))
        let error = await #expect(throws: GatewayAPIError.cardDataInvalid) {
            try await SealedCardDataFixture.opener(keys).open(
                sealed, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
        }
        #expect(!(error.map { "\($0)" } ?? "").contains(SealedCardDataFixture.visaPAN))
    }

    @Test func wrongProtocolInfoIsInvalid() async throws {
        let payload = try SealedCardDataFixture.payload()
        let sealed = try handSeal(
            plaintext(payload), header: header(for: payload), info: "contactless.sealed-card-data.v0")
        await #expect(throws: GatewayAPIError.cardDataInvalid) {
            try await SealedCardDataFixture.opener(keys).open(
                sealed, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
        }
    }

    @Test func keyRotationKeepsOldKeysOpening() async throws {
        let newKey = P256.KeyAgreement.PrivateKey()
        let opener = SealedCardDataFixture.opener(["psp-2026-11": key, "psp-2026-12": newKey])
        let old = try sealer.seal(try SealedCardDataFixture.payload())
        let new = try CardDataSealer(publicKey: newKey.publicKey, keyId: "psp-2026-12").seal(
            try SealedCardDataFixture.payload())
        for sealed in [old, new] {
            _ = try await opener.open(
                sealed, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
        }
        let unknown = try CardDataSealer(publicKey: newKey.publicKey, keyId: "psp-2027-01").seal(
            try SealedCardDataFixture.payload())
        await #expect(throws: GatewayAPIError.cardDataInvalid) {
            try await opener.open(
                unknown, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
        }
        // Sealed to the new key but labelled with the old id: HPKE fails (the key id is also authenticated).
        let mislabelled = SealedCardData(
            keyId: "psp-2026-11", readId: new.readId, deviceId: new.deviceId, merchantId: new.merchantId,
            encapsulatedKey: new.encapsulatedKey, ciphertext: new.ciphertext)
        await #expect(throws: GatewayAPIError.cardDataInvalid) {
            try await SealedCardDataFixture.opener(["psp-2026-11": key]).open(
                mislabelled, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
        }
    }

    /// Every single-bit flip in every byte of the encapsulated key and the ciphertext is refused, and records nothing.
    @Test func tamperingAnyByteIsInvalid() async throws {
        let sealed = try sealer.seal(try SealedCardDataFixture.payload())
        let store = InMemorySealedCardDataReplayStore()
        let opener = SealedCardDataFixture.opener(keys, store: store)
        func variants() -> [SealedCardData] {
            var result: [SealedCardData] = []
            for index in sealed.encapsulatedKey.indices {
                var enc = sealed.encapsulatedKey
                enc[index] ^= 0x01
                result.append(sealed.replacing(encapsulatedKey: enc))
            }
            for index in sealed.ciphertext.indices {
                var ciphertext = sealed.ciphertext
                ciphertext[index] ^= 0x80
                result.append(sealed.replacing(ciphertext: ciphertext))
            }
            result.append(sealed.replacing(ciphertext: sealed.ciphertext.dropLast()))
            result.append(sealed.replacing(ciphertext: Data()))
            result.append(sealed.replacing(encapsulatedKey: Data()))
            return result
        }
        for variant in variants() {
            await #expect(throws: GatewayAPIError.cardDataInvalid) {
                try await opener.open(
                    variant, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
            }
        }
        #expect(await store.count == 0)
        _ = try await opener.open(
            sealed, merchantId: SealedCardDataFixture.merchantId, deviceId: SealedCardDataFixture.deviceId)
    }

    @Test func twentyConcurrentOpensSucceedOnce() async throws {
        let sealed = try sealer.seal(try SealedCardDataFixture.payload())
        let opener = SealedCardDataFixture.opener(keys)
        let results = await withTaskGroup(of: GatewayAPIError?.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    do throws(GatewayAPIError) {
                        _ = try await opener.open(
                            sealed, merchantId: SealedCardDataFixture.merchantId,
                            deviceId: SealedCardDataFixture.deviceId)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            var results: [GatewayAPIError?] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(results.count(where: { $0 == nil }) == 1)
        #expect(results.count(where: { $0 == GatewayAPIError.cardDataReplayed }) == 19)
    }

    @Test func replayStoreForgetsExpiredReads() async {
        let now = SealedCardDataFixture.createdAt
        let store = InMemorySealedCardDataReplayStore()
        let first = UUID()
        #expect(await store.recordOpened(readId: first, expiresAt: now.addingTimeInterval(1), now: now))
        #expect(await !store.recordOpened(readId: first, expiresAt: now.addingTimeInterval(1), now: now))
        #expect(
            await store.recordOpened(
                readId: UUID(), expiresAt: now.addingTimeInterval(60), now: now.addingTimeInterval(2)))
        #expect(await store.count == 1)
    }
}

extension SealedCardData {
    func replacing(encapsulatedKey: Data? = nil, ciphertext: Data? = nil) -> SealedCardData {
        SealedCardData(
            keyId: keyId, readId: readId, deviceId: deviceId, merchantId: merchantId,
            encapsulatedKey: encapsulatedKey ?? self.encapsulatedKey, ciphertext: ciphertext ?? self.ciphertext)
    }
}
