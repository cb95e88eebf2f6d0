import EMV
import Foundation
import Testing

@Suite("Online payment cryptogram of a device account number")
struct OnlinePaymentCryptogramTests {
    // Known answer computed with pyemv 1.5.0, independently of this code:
    //   mk = kd.derive_icc_mk_a(IMK, "4895370012345671", "00")
    //   sk = kd.derive_common_sk(mk, ATC ‖ 00 00 ‖ UN)
    //   mac.mac_iso9797_3(sk[:8], sk[8:], 01 ‖ ATC ‖ UN ‖ 2611181430 ‖ DPAN cn10 ‖ amount n12 ‖ currency n4, 2)
    static let issuerMasterKey = [UInt8](hex: "3D2A8C4F1B7E6D5A0C9B8E7F6A5D4C3B") ?? []
    static let dpan = "4895370012345671"
    static let tokenKeyHex = "67349E3D0E2FA8CBB6D3B6FEE5256838"
    static let expectedHex = "010007A1B2C3D426111814307E1A24F04AC8FF21"
    static let time = Date(timeIntervalSince1970: 1_795_012_200)  // 2026-11-18 14:30 UTC
    static let un: [UInt8] = [0xA1, 0xB2, 0xC3, 0xD4]

    static func tokenKey() throws -> [UInt8] {
        try KeyDerivation.iccMasterKeyOptionA(issuerMasterKey: issuerMasterKey, pan: dpan, psn: "00")
    }

    static func cryptogram(amount: Int = 1_234, at time: Date = time) throws -> OnlinePaymentCryptogram {
        try OnlinePaymentCryptogram.generate(
            tokenKey: tokenKey(), dpan: dpan, amount: amount, currencyCode: 978, atc: 7, unpredictableNumber: un,
            time: time)
    }

    @Test("generation matches pyemv's derivation, session key and retail MAC")
    func knownAnswer() throws {
        #expect(try Self.tokenKey().hexString.uppercased() == Self.tokenKeyHex)
        let cryptogram = try Self.cryptogram()
        #expect(cryptogram.bytes.hexString.uppercased() == Self.expectedHex)
        #expect(cryptogram.bytes.count == OnlinePaymentCryptogram.byteCount)
        #expect(cryptogram.atc == 7)
        #expect(cryptogram.unpredictableNumber == Self.un)
        #expect(cryptogram.time == Self.time)
    }

    @Test("a parsed cryptogram verifies for its DPAN, amount and currency only")
    func verification() throws {
        let parsed = try OnlinePaymentCryptogram(bytes: [UInt8](hex: Self.expectedHex) ?? [])
        let key = try Self.tokenKey()
        #expect(try parsed.verify(tokenKey: key, dpan: Self.dpan, amount: 1_234, currencyCode: 978))
        #expect(try !parsed.verify(tokenKey: key, dpan: Self.dpan, amount: 1_235, currencyCode: 978))
        #expect(try !parsed.verify(tokenKey: key, dpan: Self.dpan, amount: 1_234, currencyCode: 840))
        #expect(try !parsed.verify(tokenKey: key, dpan: "4895370012345689", amount: 1_234, currencyCode: 978))
        var otherKey = key
        otherKey[0] ^= 0x02
        #expect(try !parsed.verify(tokenKey: otherKey, dpan: Self.dpan, amount: 1_234, currencyCode: 978))
    }

    @Test("every changed byte fails to parse or to verify", arguments: 0..<20)
    func mutatedByte(index: Int) throws {
        var bytes = [UInt8](hex: Self.expectedHex) ?? []
        bytes[index] ^= 0x01
        guard let parsed = try? OnlinePaymentCryptogram(bytes: bytes) else { return }
        #expect(try !parsed.verify(tokenKey: Self.tokenKey(), dpan: Self.dpan, amount: 1_234, currencyCode: 978))
    }

    @Test("wrong length, version or time is refused")
    func malformed() throws {
        let good = [UInt8](hex: Self.expectedHex) ?? []
        #expect(throws: CryptoError.invalidDataLength) { try OnlinePaymentCryptogram(bytes: good.dropLast()) }
        #expect(throws: CryptoError.invalidDataLength) { try OnlinePaymentCryptogram(bytes: [UInt8]()) }
        var version = good
        version[0] = 0x02
        #expect(throws: CryptoError.invalidParameter) { try OnlinePaymentCryptogram(bytes: version) }
        var month = good
        month[8] = 0x13  // month 13
        #expect(throws: CryptoError.invalidParameter) { try OnlinePaymentCryptogram(bytes: month) }
        var nibble = good
        nibble[11] = 0x3A  // minute 3A
        #expect(throws: CryptoError.invalidParameter) { try OnlinePaymentCryptogram(bytes: nibble) }
        #expect(throws: CryptoError.invalidFieldLength) {
            try OnlinePaymentCryptogram.generate(
                tokenKey: Self.tokenKey(), dpan: Self.dpan, amount: 1, currencyCode: 978, atc: 1,
                unpredictableNumber: [1, 2, 3], time: Self.time)
        }
        #expect(throws: CryptoError.invalidParameter) { try Self.cryptogram(amount: -1) }
        #expect(throws: CryptoError.invalidParameter) {
            try Self.cryptogram(at: Date(timeIntervalSince1970: 0))
        }
    }

    @Test("the time is kept to the minute")
    func minutes() throws {
        let cryptogram = try Self.cryptogram(at: Self.time.addingTimeInterval(59))
        #expect(cryptogram.time == Self.time)
        #expect(cryptogram.bytes == (try Self.cryptogram()).bytes)
    }

    @Test("the description shows neither the MAC nor the unpredictable number")
    func description() throws {
        let cryptogram = try Self.cryptogram()
        let text = "\(cryptogram)"
        #expect(text.contains("ATC 7"))
        #expect(!text.uppercased().contains(cryptogram.mac.hexString.uppercased()))
        #expect(!text.uppercased().contains("A1B2C3D4"))
    }
}
