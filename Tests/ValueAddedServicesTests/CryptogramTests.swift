import Crypto
import EMV
import Foundation
import Testing
import ValueAddedServices

/// Our wallet's cryptograms open with the merchant's key, and every bad input is a typed error.
@Suite struct CryptogramTests {
    static let pid = "pass.com.example.coffee"
    let merchant = P256.KeyAgreement.PrivateKey()
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func seal(_ message: String = "member-1001", at time: Date? = nil) throws -> [UInt8] {
        try VASCryptogram.seal(
            message, timestamp: time ?? now, passTypeIdentifier: Self.pid, to: merchant.publicKey)
    }

    func decrypt(_ cryptogram: [UInt8], keys: [P256.KeyAgreement.PrivateKey]? = nil, pid: String = pid) throws
        -> VASMessage
    {
        try VASDecryptor(keys: keys ?? [merchant]).decrypt(cryptogram, passTypeIdentifier: pid, now: now)
    }

    func code(_ body: () throws -> VASMessage) -> VASError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? VASError)?.code
        }
    }

    @Test func roundTrip() throws {
        let cryptogram = try seal()
        #expect(cryptogram.count == 4 + 32 + 4 + 11 + 16)
        #expect(Array(cryptogram.prefix(4)) == VASCryptogram.keyID(of: merchant.publicKey))
        let opened = try decrypt(cryptogram)
        #expect(opened.message == "member-1001")
        #expect(opened.timestamp == now)
    }

    @Test func theRightKeyIsPickedAmongSeveral() throws {
        let others = (0..<3).map { _ in P256.KeyAgreement.PrivateKey() }
        #expect(try decrypt(try seal(), keys: others + [merchant]).message == "member-1001")
    }

    @Test func unknownKeyID() throws {
        #expect(code { try decrypt(try seal(), keys: [P256.KeyAgreement.PrivateKey()]) } == .unknownKeyID)
    }

    @Test(arguments: [4, 20, 36, 40, 50, 55])
    func tamperedBytesFailTheTag(_ offset: Int) throws {
        var cryptogram = try seal()
        cryptogram[offset] ^= 0x01
        // A flipped x coordinate may leave the curve: that is its own error, still before any plaintext.
        #expect([.authenticationFailed, .invalidEphemeralKey].contains(code { try decrypt(cryptogram) }))
    }

    @Test func truncated() throws {
        let cryptogram = try seal()
        for length in [0, 4, 36, VASCryptogram.minimumLength - 1] {
            #expect(code { try decrypt(Array(cryptogram.prefix(length))) } == .truncatedCryptogram)
        }
        // Cut inside the ciphertext but past the minimum: the tag no longer verifies.
        #expect(code { try decrypt(Array(cryptogram.dropLast(3))) } == .authenticationFailed)
    }

    @Test func timestampWindow() throws {
        #expect(try decrypt(try seal(at: now.addingTimeInterval(-299))).message == "member-1001")
        #expect(try decrypt(try seal(at: now.addingTimeInterval(299))).message == "member-1001")
        #expect(code { try decrypt(try seal(at: now.addingTimeInterval(-301))) } == .timestampOutsideWindow)
        #expect(code { try decrypt(try seal(at: now.addingTimeInterval(301))) } == .timestampOutsideWindow)
    }

    @Test func anotherPassType() throws {
        #expect(code { try decrypt(try seal(), pid: "pass.com.example.tea") } == .authenticationFailed)
    }

    @Test func errorsNameNoMessageNorKey() throws {
        let cryptogram = try seal("secret-member-42")
        for body in [
            { try decrypt(cryptogram, keys: [P256.KeyAgreement.PrivateKey()]) },
            { try decrypt(cryptogram, pid: "pass.com.example.tea") },
        ] {
            do {
                _ = try body()
                Issue.record("decrypted")
            } catch {
                let text = "\(error)"
                #expect(!text.contains("secret-member-42"))
                #expect(!text.contains(merchant.rawRepresentation.hexString))
            }
        }
    }
}
