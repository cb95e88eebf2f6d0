import Crypto
import Foundation
import EMV

extension IssuerKeys {
    /// The zone PIN key of ``test``: TDES, for ISO 9564 format 0 PIN blocks in tests and demos.
    public static let testZonePINKey: [UInt8] = [UInt8](hex: "0123456789ABCDEFFEDCBA9876543210") ?? []
    /// The PIN encryption key of ``test``: AES-128, for ISO 9564 format 4 PIN blocks in tests and demos.
    public static let testPINEncryptionKey: [UInt8] = [UInt8](hex: "000102030405060708090A0B0C0D0E0F") ?? []

    /// The Visa token BIN of the test issuer's vault.
    public static let testVisaTokenPrefix = "489537"
    /// The Mastercard token BIN of the test issuer's vault.
    public static let testMastercardTokenPrefix = "520473"

    /// The keys of the test issuer: the shipped test profiles' issuer master keys (CardEmulator's `visa-test.json`
    /// and `mastercard-test.json`, which personalise the ``TestCards``) for the test BIN ranges, test keys for the
    /// token BIN ranges, and fixed, public data and PIN keys. Test data only: anyone can read these keys (an issuer
    /// that stores accounts in a file takes its data keys from a secret: ``test(dataKeysFrom:)``).
    ///
    /// The master keys are written out here, not read from the profiles, so that the issuer does not depend on the
    /// card emulator; IssuerTests checks that they are the profiles' keys.
    public static var test: IssuerKeys {
        get throws(IssuerError) {
            try test(
                panHashKey: Array(repeating: 0x11, count: 32), panEncryptionKey: Array(repeating: 0x22, count: 32),
                pinVerificationKey: Array(repeating: 0x33, count: 32))
        }
    }

    /// The test issuer's master and PIN keys (``test``), with data keys of its own: the PAN hash, PAN encryption
    /// and PIN verification keys derived from `secret` (HKDF-SHA256, one label each). An issuer that keeps its
    /// accounts in a file uses these, so the test cards' PANs are not recoverable from the file without the secret.
    public static func test(dataKeysFrom secret: SymmetricKey) throws(IssuerError) -> IssuerKeys {
        func derive(_ label: String) -> [UInt8] {
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: secret, info: Data("contactless issuer \(label)".utf8), outputByteCount: 32
            ).withUnsafeBytes { Array($0) }
        }
        return try test(
            panHashKey: derive("PAN hash"), panEncryptionKey: derive("PAN encryption"),
            pinVerificationKey: derive("PIN verification"))
    }

    private static func test(
        panHashKey: [UInt8], panEncryptionKey: [UInt8], pinVerificationKey: [UInt8]
    ) throws(IssuerError) -> IssuerKeys {
        func hex(_ text: String) -> [UInt8] { [UInt8](hex: text) ?? [] }
        return try IssuerKeys(
            masterKeys: [
                Range(
                    prefix: TestCards.visaPrefix,
                    keys: try IssuerMasterKeys(
                        ac: hex("0123456789ABCDEFFEDCBA9876543210"), smi: hex("1032547698BADCFEEFCDAB8967452301"),
                        smc: hex("89ABCDEF0123456776543210FEDCBA98"))),
                Range(
                    prefix: TestCards.mastercardPrefix,
                    keys: try IssuerMasterKeys(
                        ac: hex("9E15204313F7318ACB79B90BD986AD29"), smi: hex("4664942FE615FB02E5D57F292AA2B3B6"),
                        smc: hex("CE293B8CC12A977379EF256D76109492"))),
                // Token BIN ranges of the vault (TokenRange.test): their IMK-AC derives each DPAN's key.
                Range(
                    prefix: testVisaTokenPrefix,
                    keys: try IssuerMasterKeys(
                        ac: hex("3D2A8C4F1B7E6D5A0C9B8E7F6A5D4C3B"), smi: hex("7A6B5C4D3E2F10FEDCBA9876543210AB"),
                        smc: hex("0F1E2D3C4B5A69788796A5B4C3D2E1F0"))),
                Range(
                    prefix: testMastercardTokenPrefix,
                    keys: try IssuerMasterKeys(
                        ac: hex("5B4A39281706F5E4D3C2B1A098877665"), smi: hex("1122334455667788998877665544332B"),
                        smc: hex("A1B2C3D4E5F60718293A4B5C6D7E8F90"))),
            ],
            panHashKey: panHashKey, panEncryptionKey: panEncryptionKey, pinVerificationKey: pinVerificationKey,
            zonePINKey: testZonePINKey, pinEncryptionKey: testPINEncryptionKey)
    }
}
