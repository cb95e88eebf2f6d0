public import EMV
import Crypto
import Foundation

// Protecting PANs and PINs at rest: keyed hash, AES-GCM, PIN verification values.
extension IssuerKeys {
    /// The keyed hash an account is found by: HMAC-SHA256 of the PAN's digits under the PAN hash key.
    public func keyedHash(of pan: PAN) -> KeyedPANHash {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(pan.digits.utf8), using: panHashKey)
        return KeyedPANHash(bytes: Array(mac))
    }

    /// The PAN under AES-256-GCM with a fresh random nonce, bound to its keyed hash as additional data (so a
    /// ciphertext moved to another account does not open).
    public func encrypt(_ pan: PAN) throws(IssuerError) -> [UInt8] {
        let hash = keyedHash(of: pan)
        do {
            let box = try AES.GCM.seal(Array(pan.digits.utf8), using: panEncryptionKey, authenticating: hash.bytes)
            guard let combined = box.combined else { throw IssuerError(.invalidKey, "AES-GCM gave no combined box") }
            return Array(combined)
        } catch let error as IssuerError {
            throw error
        } catch {
            throw IssuerError(.invalidKey, "AES-GCM sealing failed")
        }
    }

    /// The account's PAN, opened from its encrypted form; for the host's ARQC check and PIN blocks only.
    /// - Throws: ``IssuerError/unreadableAccount`` when the ciphertext does not open or is not the hashed PAN.
    public func pan(of account: CardAccount) throws(IssuerError) -> PAN {
        try openPAN(account.encryptedPAN, keyedPAN: account.keyedPAN)
    }

    /// A PAN (or DPAN) sealed by ``encrypt(_:)``, opened and checked against its keyed hash.
    /// - Throws: ``IssuerError/unreadableAccount`` when the ciphertext does not open or is not the hashed PAN.
    func openPAN(_ encryptedPAN: [UInt8], keyedPAN: KeyedPANHash) throws(IssuerError) -> PAN {
        guard let box = try? AES.GCM.SealedBox(combined: encryptedPAN),
            let digits = try? AES.GCM.open(box, using: panEncryptionKey, authenticating: keyedPAN.bytes),
            let pan = try? PAN(String(decoding: digits, as: UTF8.self)), keyedHash(of: pan) == keyedPAN
        else {
            throw IssuerError(.unreadableAccount, "the encrypted PAN of \(keyedPAN) does not open")
        }
        return pan
    }

    /// The value stored instead of a PIN: HMAC-SHA256 over the PAN's digits, a separator and the PIN, under the
    /// PIN verification key (binding the PIN to the PAN, like an IBM 3624 offset or a Visa PVV does).
    /// - Throws: ``IssuerError/invalidPIN`` unless the PIN is 4 to 12 digits.
    public func pinVerificationValue(pin: String, pan: PAN) throws(IssuerError) -> [UInt8] {
        guard (4...12).contains(pin.utf8.count), pin.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw IssuerError(.invalidPIN, "a PIN has 4 to 12 digits")
        }
        let message = Array(pan.digits.utf8) + [0x7C] + Array(pin.utf8)
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: pinVerificationKey))
    }

    /// Opens a new active account for `pan`: keyed hash, encrypted PAN, masked PAN and, with a PIN, its
    /// verification value.
    /// - Throws: ``IssuerError/invalidPIN`` for a PIN that is not 4 to 12 digits.
    public func openAccount(
        pan: PAN, pin: String?, expiry: ExpiryDate, currency: Currency, availableBalance: Int
    ) throws(IssuerError) -> CardAccount {
        CardAccount(
            keyedPAN: keyedHash(of: pan), encryptedPAN: try encrypt(pan), maskedPAN: pan.masked, expiry: expiry,
            currency: currency, availableBalance: availableBalance,
            pinVerificationValue: try pin.map { (pin) throws(IssuerError) in
                try pinVerificationValue(pin: pin, pan: pan)
            })
    }
}
