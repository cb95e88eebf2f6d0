/// Mastercard's dynamic card verification code (CVC3), which contactless magnetic-stripe mode cards put in the
/// track data of each transaction.
///
/// The card computes IVCVC3 once from its track template, then per transaction
/// CVC3 = the last 2 bytes of TDES(KDCVC3)[IVCVC3 ‖ UN ‖ ATC], as a number; the track shows its last digits.
/// Matches pyemv 1.5.0 `cvv.generate_cvc3`.
public enum CVC3 {
    /// Generates the CVC3 of a transaction.
    ///
    /// Same as pyemv `cvv.generate_cvc3(icc_cvc3, track_template, atc, un)`, which returns the number's decimal
    /// text: `String(value)`.
    /// - Parameters:
    ///   - iccKey: The card's 16-byte CVC3 key (KDCVC3), derived from the issuer's with option A or B.
    ///   - trackTemplate: The track 1 or 2 template, as its bytes (track 2 as packed digits, track 1 as ASCII).
    ///   - atc: The application transaction counter (tag 9F36), 2 bytes.
    ///   - unpredictableNumber: The reader's unpredictable number (tag 9F6A in mag-stripe mode, 9F37), 4 bytes.
    /// - Returns: The CVC3 as a number from 0 to 65535.
    public static func generate(
        iccKey: [UInt8],
        trackTemplate: [UInt8],
        atc: [UInt8],
        unpredictableNumber: [UInt8]
    ) throws(CryptoError) -> UInt16 {
        let key = try checkedKey(iccKey, atc: atc, unpredictableNumber: unpredictableNumber)
        let iv = try initializationVector(key, trackTemplate: trackTemplate)
        return cvc3(key, iv: iv, atc: atc, unpredictableNumber: unpredictableNumber)
    }

    /// IVCVC3: the last 2 bytes of the ISO/IEC 9797-1 algorithm 3 MAC (padding method 2) of the track template,
    /// which the card stores at personalisation.
    /// - Parameters:
    ///   - iccKey: The card's 16-byte CVC3 key.
    ///   - trackTemplate: The track 1 or 2 template bytes.
    /// - Returns: IVCVC3, 2 bytes.
    public static func initializationVector(iccKey: [UInt8], trackTemplate: [UInt8]) throws(CryptoError) -> [UInt8] {
        let key = try DoubleLengthKey(iccKey, name: "ICC CVC3 key")
        let iv = try initializationVector(key, trackTemplate: trackTemplate)
        return [UInt8(iv >> 8), UInt8(truncatingIfNeeded: iv)]
    }

    /// Generates the CVC3 from a stored IVCVC3, as the card does.
    /// - Parameters:
    ///   - iccKey: The card's 16-byte CVC3 key.
    ///   - initializationVector: IVCVC3, 2 bytes.
    ///   - atc: The application transaction counter, 2 bytes.
    ///   - unpredictableNumber: The reader's unpredictable number, 4 bytes.
    /// - Returns: The CVC3 as a number from 0 to 65535.
    public static func generate(
        iccKey: [UInt8],
        initializationVector: [UInt8],
        atc: [UInt8],
        unpredictableNumber: [UInt8]
    ) throws(CryptoError) -> UInt16 {
        let key = try checkedKey(iccKey, atc: atc, unpredictableNumber: unpredictableNumber)
        try CryptoError.checkLength(initializationVector, 2, "IVCVC3")
        let iv = UInt16(initializationVector[0]) << 8 | UInt16(initializationVector[1])
        return cvc3(key, iv: iv, atc: atc, unpredictableNumber: unpredictableNumber)
    }

    /// Checks the CVC3 digits found in track data (the last 1 to 5 decimal digits of the CVC3) against the ones
    /// computed from the same inputs (issuer side).
    /// - Parameters:
    ///   - digits: The received digits, as text; anything but 1 to 5 ASCII digits does not match.
    ///   - iccKey: The card's 16-byte CVC3 key.
    ///   - trackTemplate: The track template bytes.
    ///   - atc: The application transaction counter, 2 bytes.
    ///   - unpredictableNumber: The unpredictable number, 4 bytes.
    /// - Returns: Whether the digits are the CVC3's last digits.
    public static func verify(
        _ digits: String,
        iccKey: [UInt8],
        trackTemplate: [UInt8],
        atc: [UInt8],
        unpredictableNumber: [UInt8]
    ) throws(CryptoError) -> Bool {
        let expected = try generate(
            iccKey: iccKey, trackTemplate: trackTemplate, atc: atc, unpredictableNumber: unpredictableNumber
        )
        let ascii = Array(digits.utf8)
        guard (1...5).contains(ascii.count), ascii.allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
        let received = ascii.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        let modulus = ascii.indices.reduce(1) { product, _ in product * 10 }
        return Int(expected) % modulus == received
    }

    /// The key, after pyemv's checks in its order: key, then ATC, then UN.
    static func checkedKey(
        _ iccKey: [UInt8],
        atc: [UInt8],
        unpredictableNumber: [UInt8]
    ) throws(CryptoError) -> DoubleLengthKey {
        let key = try DoubleLengthKey(iccKey, name: "ICC CVC3 key")
        try CryptoError.checkLength(atc, 2, "ATC")
        try CryptoError.checkLength(unpredictableNumber, 4, "unpredictable number")
        return key
    }

    static func initializationVector(_ key: DoubleLengthKey, trackTemplate: [UInt8]) throws(CryptoError) -> UInt16 {
        let mac = ApplicationCryptogram.mac(key, data: trackTemplate, padding: .emv)
        return UInt16(mac[6]) << 8 | UInt16(mac[7])
    }

    /// The last 2 bytes of TDES(key)[IVCVC3 ‖ UN ‖ ATC]; lengths already checked.
    static func cvc3(_ key: DoubleLengthKey, iv: UInt16, atc: [UInt8], unpredictableNumber un: [UInt8]) -> UInt16 {
        // Loading 4 or 2 bytes gives their value in the low bits.
        let block = UInt64(iv) << 48 | BigEndianBlock.load(un) << 16 | BigEndianBlock.load(atc)
        return UInt16(truncatingIfNeeded: key.schedule.encrypt(block: block))
    }
}
