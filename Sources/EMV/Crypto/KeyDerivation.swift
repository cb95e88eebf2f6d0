import Crypto

/// ICC master key derivation from an issuer master key (EMV 4.3 Book 2, Annex A1.4).
///
/// The card holds one ICC master key per purpose (application cryptograms, script integrity, script
/// confidentiality); the issuer re-derives them from its issuer master keys and the card's PAN and PAN sequence
/// number. Both options follow pyemv 1.5.0 (`pyemv.kd`) exactly, including what it accepts: PAN and PSN are text
/// of hexadecimal digits (pyemv feeds them to `a2b_hex`, so `A`–`F` pass), and a missing PSN means `"00"`.
public enum KeyDerivation {
    /// The two ICC master key derivation methods of EMV Book 2, Annex A1.4.
    public enum Option: Sendable, Hashable {
        /// Option A (A1.4.1): the rightmost 16 digits of PAN ‖ PSN.
        case a
        /// Option B (A1.4.2): a SHA-1 digest of PAN ‖ PSN when the PAN is longer than 16 digits, else option A.
        case b
    }

    /// Derives an ICC master key with option A (EMV 4.3 Book 2, A1.4.1).
    ///
    /// Y is the rightmost 16 digits of PAN ‖ PSN, left-padded with zeros; the key is
    /// TDES(IMK)[Y] ‖ TDES(IMK)[Y ⊕ FF…FF], with odd parity. Same as pyemv `kd.derive_icc_mk_a(iss_mk, pan, psn)`.
    /// - Parameters:
    ///   - issuerMasterKey: The issuer master key: 8, 16 or 24 bytes.
    ///   - pan: The application PAN as text.
    ///   - psn: The PAN sequence number as text; nil means `"00"` (an empty text stays empty).
    /// - Returns: The 16-byte ICC master key.
    /// - Throws: ``CryptoError/invalidPAN`` when the digits used are not hexadecimal,
    ///   ``CryptoError/invalidKeyLength`` for an issuer master key of another length.
    public static func iccMasterKeyOptionA(
        issuerMasterKey: [UInt8],
        pan: String,
        psn: String? = nil
    ) throws(CryptoError) -> [UInt8] {
        try iccMasterKeyHalves(option: .a, issuerMasterKey: issuerMasterKey, pan: pan, psn: psn).bytes
    }

    /// Derives an ICC master key with option B (EMV 4.3 Book 2, A1.4.2).
    ///
    /// A PAN of 16 digits or fewer uses option A. Otherwise X is PAN ‖ PSN (a zero in front when the PAN has an
    /// odd number of digits), Y is the first 16 decimal digits of SHA-1(X) in hexadecimal, completed when short by
    /// its letters a–f decimalised to 0–5, and the key is TDES(IMK)[Y] ‖ TDES(IMK)[Y ⊕ FF…FF] with odd parity.
    /// Same as pyemv `kd.derive_icc_mk_b(iss_mk, pan, psn)`, which also refuses an odd total of digits.
    /// - Parameters:
    ///   - issuerMasterKey: The issuer master key: 8, 16 or 24 bytes.
    ///   - pan: The application PAN as text.
    ///   - psn: The PAN sequence number as text; nil means `"00"` (an empty text stays empty).
    /// - Returns: The 16-byte ICC master key.
    /// - Throws: ``CryptoError/invalidPAN`` when PAN ‖ PSN is not hexadecimal digits (or, for long PANs, an odd
    ///   number of them), ``CryptoError/invalidKeyLength`` for an issuer master key of another length.
    public static func iccMasterKeyOptionB(
        issuerMasterKey: [UInt8],
        pan: String,
        psn: String? = nil
    ) throws(CryptoError) -> [UInt8] {
        try iccMasterKeyHalves(option: .b, issuerMasterKey: issuerMasterKey, pan: pan, psn: psn).bytes
    }

    /// Derives an ICC master key with the given option.
    public static func iccMasterKey(
        option: Option,
        issuerMasterKey: [UInt8],
        pan: String,
        psn: String? = nil
    ) throws(CryptoError) -> [UInt8] {
        switch option {
        case .a: try iccMasterKeyOptionA(issuerMasterKey: issuerMasterKey, pan: pan, psn: psn)
        case .b: try iccMasterKeyOptionB(issuerMasterKey: issuerMasterKey, pan: pan, psn: psn)
        }
    }

    /// The ICC master key as its halves: the derivation behind the functions above and ``ICCMasterKeys``, which
    /// keeps keys as halves.
    static func iccMasterKeyHalves(
        option: Option,
        issuerMasterKey: [UInt8],
        pan: String,
        psn: String? = nil
    ) throws(CryptoError) -> DoubleLengthKey {
        try derive(issuerMasterKey: issuerMasterKey, y: input(option, pan: pan.utf8, psn: (psn ?? "00").utf8))
    }

    /// TDES(IMK)[Y] ‖ TDES(IMK)[~Y] with odd parity.
    static func derive(issuerMasterKey: [UInt8], y: UInt64) throws(CryptoError) -> DoubleLengthKey {
        let (left, right) = try TDESKey.withTemporaryCipher(issuerMasterKey) { $0.encrypt(y, ~y) }
        return DoubleLengthKey(left: left, right: right).withOddParity
    }

    /// Y for `option` from the UTF-8 of the PAN and PSN.
    static func input(
        _ option: Option, pan: some Collection<UInt8>, psn: some Collection<UInt8>
    ) throws(CryptoError) -> UInt64 {
        switch option {
        case .a: try optionAInput(pan: pan, psn: psn)
        case .b: try optionBInput(pan: pan, psn: psn)
        }
    }

    /// Y for option A: the rightmost 16 characters of PAN ‖ PSN (UTF-8) as hex digits, left-padded with zeros.
    static func optionAInput(pan: some Collection<UInt8>, psn: some Collection<UInt8>) throws(CryptoError) -> UInt64 {
        // pyemv slices Python text, so characters are Unicode scalars; those left of the last 16 are not read.
        // Shifting every digit into Y keeps the last 16 without collecting the characters first; a character
        // that is not a hex digit matters only if it is one of those 16.
        //
        // Read as UTF-8 bytes, not decoded scalars, which gives the same answer: when the last 16 scalars are
        // ASCII they are the last 16 bytes; when one of them is not, its last byte (not a hex digit) is among
        // the last 16 bytes, so both ways refuse the input.
        var y: UInt64 = 0
        var count = 0
        var lastInvalid = -1
        func shiftIn(_ bytes: some Collection<UInt8>) {
            for byte in bytes {
                if let nibble = [UInt8].nibble(byte) {
                    y = y << 4 | UInt64(nibble)
                } else {
                    y <<= 4
                    lastInvalid = count
                }
                count += 1
            }
        }
        shiftIn(pan)
        shiftIn(psn)
        guard lastInvalid < 0 || lastInvalid < count - 16 else { throw invalidDigits }
        return y
    }

    /// Y for option B (falls back to option A for PANs of at most 16 characters).
    static func optionBInput(pan: some Collection<UInt8>, psn: some Collection<UInt8>) throws(CryptoError) -> UInt64 {
        // Counted in scalars, as pyemv does (bytes that do not continue a sequence); a PAN of at most 16 bytes
        // has at most 16 of them.
        let panLength = pan.count <= 16 ? pan.count : pan.reduce(0) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        guard panLength > 16 else { return try optionAInput(pan: pan, psn: psn) }
        // X = PAN ‖ PSN as packed digits, with a zero in front of a PAN of odd length.
        // X is packed on the stack (an array here was an allocation per derivation).
        let capacity = (pan.count + psn.count + 1) / 2 + 1
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { (x) throws(CryptoError) in
            var count = 0
            var high: UInt8? = panLength % 2 == 1 ? 0 : nil
            // Packed from UTF-8 bytes: a scalar that is not ASCII is refused either way.
            func pack(_ bytes: some Collection<UInt8>) throws(CryptoError) {
                for byte in bytes {
                    guard let nibble = [UInt8].nibble(byte) else { throw invalidDigits }
                    if let first = high {
                        x[count] = first << 4 | nibble
                        count += 1
                        high = nil
                    } else {
                        high = nibble
                    }
                }
            }
            try pack(pan)
            try pack(psn)
            guard high == nil else {
                throw CryptoError(.invalidPAN, "PAN and PAN sequence number must make an even number of digits")
            }
            // Through `update(bufferPointer:)`: `hash(data:)` takes any `DataProtocol` and walks its regions
            // generically, which cost more than the digest itself for these few bytes.
            var sha1 = Insecure.SHA1()
            sha1.update(bufferPointer: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: x[..<count])))
            return sha1.finalize().withUnsafeBytes { decimalised($0) }
        }
    }

    private static var invalidDigits: CryptoError {
        CryptoError(.invalidPAN, "PAN and PAN sequence number must be hexadecimal digits")
    }

    /// The first 16 decimal digits of the digest's hex form, then its letters a–f as 0–5 until there are 16.
    static func decimalised(_ digest: some Sequence<UInt8>) -> UInt64 {
        // Digits go straight into Y; letters are kept (as 0–5) in a second register, in order, for the case of
        // fewer than 16 digits. SHA-1 has 40 nibbles, so there are always 16 to take.
        var digits: UInt64 = 0
        var digitCount = 0
        var letters: UInt64 = 0
        var letterCount = 0
        func take(_ nibble: UInt8) {
            if nibble < 10 {
                digits = digits << 4 | UInt64(nibble)
                digitCount += 1
            } else if letterCount < 16 {
                letters = letters << 4 | UInt64(nibble - 10)
                letterCount += 1
            }
        }
        for byte in digest where digitCount < 16 {
            take(byte >> 4)
            if digitCount < 16 { take(byte & 0x0F) }
        }
        let missing = 16 - digitCount
        guard missing > 0 else { return digits }
        // The first `missing` letters, after the digits.
        return digits << (4 * missing) | letters >> (4 * (letterCount - missing))
    }
}
