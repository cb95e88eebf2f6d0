import CardEmulator
import Crypto
import Foundation
import GatewayAPI
import Testing

/// The gateway's HPKE open (swift-crypto's `HPKE.Recipient` behind a redacting key) against what readers seal.
@Suite struct CardDataRecipientKeyTests {
    static let info = Array(SealedCardData.protocolInfo.utf8)

    struct Message {
        var encapsulatedKey: Data
        var ciphertext: Data
        var authenticatedData: Data
        var plaintext: Data
    }

    static func seal(_ plaintext: Data, to key: P256.KeyAgreement.PublicKey, authenticating aad: Data) throws -> Message
    {
        var sender = try HPKE.Sender(recipientKey: key, ciphersuite: CardDataSealer.ciphersuite, info: Data(info))
        let ciphertext = try sender.seal(plaintext, authenticating: aad)
        // Copies indexed from zero (swift-crypto may hand out slices of a larger buffer).
        return Message(
            encapsulatedKey: Data(Array(sender.encapsulatedKey)), ciphertext: Data(Array(ciphertext)),
            authenticatedData: aad, plaintext: plaintext)
    }

    static func swiftCryptoOpen(_ message: Message, with key: P256.KeyAgreement.PrivateKey) throws -> Data {
        var recipient = try HPKE.Recipient(
            privateKey: key, ciphersuite: CardDataSealer.ciphersuite, info: Data(info),
            encapsulatedKey: message.encapsulatedKey)
        return try recipient.open(message.ciphertext, authenticating: message.authenticatedData)
    }

    @Test func opensWhatHPKESenderSeals() throws {
        var random = SeededRandomNumberGenerator(seed: 11)
        for round in 0..<10 {
            let privateKey = P256.KeyAgreement.PrivateKey()
            let key = CardDataRecipientKey(privateKey, info: Self.info)
            for _ in 0..<30 {
                let plaintext = Data((0..<Int(random.next() % 1_000)).map { _ in UInt8(random.next() % 256) })
                let aad = Data((0..<Int(random.next() % 200)).map { _ in UInt8(random.next() % 256) })
                let message = try Self.seal(plaintext, to: privateKey.publicKey, authenticating: aad)
                let opened = try key.open(
                    message.ciphertext, encapsulatedKey: message.encapsulatedKey, authenticating: aad)
                #expect(opened == plaintext, "round \(round)")
                #expect(opened == (try Self.swiftCryptoOpen(message, with: privateKey)))
            }
        }
    }

    @Test func refusesWhatHPKERecipientRefuses() throws {
        var random = SeededRandomNumberGenerator(seed: 12)
        let privateKey = P256.KeyAgreement.PrivateKey()
        let key = CardDataRecipientKey(privateKey, info: Self.info)
        let other = CardDataRecipientKey(P256.KeyAgreement.PrivateKey(), info: Self.info)
        let otherInfo = CardDataRecipientKey(privateKey, info: Array("another.protocol".utf8))
        for _ in 0..<200 {
            let message = try Self.seal(
                Data((0..<Int(random.next() % 300 + 1)).map { _ in UInt8(random.next() % 256) }),
                to: privateKey.publicKey, authenticating: Data("ids".utf8))
            #expect(throws: (any Error).self) {
                try other.open(
                    message.ciphertext, encapsulatedKey: message.encapsulatedKey, authenticating: Data("ids".utf8))
            }
            #expect(throws: (any Error).self) {
                try otherInfo.open(
                    message.ciphertext, encapsulatedKey: message.encapsulatedKey, authenticating: Data("ids".utf8))
            }
            // One bit flipped in the ciphertext, the encapsulated key or the authenticated data.
            var tampered = message
            switch random.next() % 3 {
            case 0:
                let at = Int(random.next() % UInt64(tampered.ciphertext.count))
                tampered.ciphertext[at] ^= 1 << UInt8(random.next() % 8)
            case 1:
                let at = 1 + Int(random.next() % UInt64(tampered.encapsulatedKey.count - 1))
                tampered.encapsulatedKey[at] ^= 1 << UInt8(random.next() % 8)
            default:
                tampered.authenticatedData = Data("idt".utf8)
            }
            #expect(throws: (any Error).self) {
                try key.open(
                    tampered.ciphertext, encapsulatedKey: tampered.encapsulatedKey,
                    authenticating: tampered.authenticatedData)
            }
            #expect(throws: (any Error).self) { try Self.swiftCryptoOpen(tampered, with: privateKey) }
        }
        #expect("\(key)" == "CardDataRecipientKey(<redacted>)" && String(reflecting: key).contains("redacted"))
        for length in [0, 1, 15] {
            #expect(throws: (any Error).self) {
                try key.open(Data(count: length), encapsulatedKey: Data(count: 65), authenticating: Data())
            }
        }
    }
}
