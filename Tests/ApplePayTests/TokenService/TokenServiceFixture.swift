import ApplePay
import Crypto
import EMV
import Foundation
import X509
import _CryptoExtras

/// A test PKI, merchants and a device account shared by the token service tests, with the clock pinned.
enum TokenServiceFixture {
    /// When every token here is signed.
    static let signingTime = Date(timeIntervalSince1970: 1_772_366_400)  // 2026-03-01T12:00:00Z
    /// When the test certificates are valid.
    static let validity = DateInterval(
        start: Date(timeIntervalSince1970: 1_735_689_600), end: Date(timeIntervalSince1970: 1_893_456_000)
    )  // 2025-01-01 … 2030-01-01
    static let merchantIdentifier = "merchant.com.example.contactless"

    /// Made once: RSA key generation is slow.
    static let pki: TestPaymentPKI = try! TestPaymentPKI(validity: validity)
    static let ecMerchant = try! pki.makeMerchantIdentity(merchantIdentifier: merchantIdentifier, key: .p256)
    static let rsaMerchant = try! pki.makeMerchantIdentity(merchantIdentifier: merchantIdentifier, key: .rsa2048)

    static func merchant(_ kind: TestPaymentPKI.MerchantKeyType) -> MerchantIdentity {
        kind == .p256 ? ecMerchant : rsaMerchant
    }

    static let account = DeviceAccount(
        accountNumber: try! PAN("4761739001010010"), expiry: try! ExpiryDate(year: 2028, month: 2), network: "Visa",
        cardholderName: "J Appleseed"
    )

    static let service = PaymentTokenService(pki: pki, clock: { signingTime })

    /// A cryptogram closure standing in for the issuer's token vault: fixed bytes, of the kind asked.
    static let cryptogramSource: CryptogramSource = { request in
        switch request.payloadKind {
        case .threeDSecure: .threeDSecure(onlinePaymentCryptogram: [UInt8](0x01...0x14), eciIndicator: "7")
        case .emv: .emv(emvData: [0x9F, 0x26, 0x08] + [UInt8](0x21...0x28), encryptedPINData: nil)
        }
    }
}

extension MerchantIdentity {
    /// The private key as PEM (PKCS #8 for EC, PKCS #1 for RSA), for the independent decryptor.
    var privateKeyPEM: String {
        switch privateKey {
        case .p256(let key): key.pemRepresentation
        case .rsa(let key): key.pemRepresentation
        }
    }
}
