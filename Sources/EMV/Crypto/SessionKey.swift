/// ICC session key derivations: EMV's common session key (EMV 4.3 Book 2, Annex A1.3), the Mastercard and Visa
/// variants built on it, Visa's secure messaging keys and the retired EMV2000 tree.
///
/// Each function matches the pyemv 1.5.0 function named in its documentation, argument for argument, including
/// the lengths it accepts.
public enum SessionKey {
    /// Height past which ``emv2000Tree(iccMasterKey:atc:height:branchFactor:iv:)`` refuses: pyemv recurses once
    /// per level and Python stops at a depth of 1000, a little above this.
    public static let maximumTreeHeight = 980

    /// EMV common session key derivation (EMV 4.3 Book 2, A1.3.1).
    ///
    /// SK = TDES(MK)[R with byte 3 = F0] ‖ TDES(MK)[R with byte 3 = 0F], with odd parity. R is the 8-byte
    /// diversification value: ATC ‖ 00…00 for application cryptograms, ATC ‖ 00 00 ‖ UN for Mastercard's, the
    /// ARQC for secure messaging. Same as pyemv `kd.derive_common_sk(icc_mk, r)`.
    /// - Parameters:
    ///   - iccMasterKey: The 16-byte ICC master key.
    ///   - diversification: R, 8 bytes.
    /// - Returns: The 16-byte session key.
    public static func common(iccMasterKey: [UInt8], diversification: [UInt8]) throws(CryptoError) -> [UInt8] {
        let masterKey = try DoubleLengthKey(iccMasterKey, name: "ICC master key").schedule
        let r = try diversificationBlock(diversification)
        return common(masterKey, r: r).bytes
    }

    /// The common session key with R = ATC ‖ 00 00 00 00 00 00: the AC session key of Visa CVN 18 and 22 and of
    /// Mastercard CVN 20 and 21.
    /// - Parameters:
    ///   - iccMasterKey: The 16-byte ICC master key.
    ///   - atc: The application transaction counter (tag 9F36), 2 bytes.
    /// - Returns: The 16-byte session key.
    public static func common(iccMasterKey: [UInt8], atc: [UInt8]) throws(CryptoError) -> [UInt8] {
        let masterKey = try DoubleLengthKey(iccMasterKey, name: "ICC master key").schedule
        return common(masterKey, r: try atcDiversification(atc[...])).bytes
    }

    /// Mastercard session key derivation (SKD): the common session key with R = ATC ‖ 00 00 ‖ UN, used by
    /// M/Chip CVN 16 and 17 and Interac CVN 133.
    ///
    /// Like pyemv's CVN classes, only the total length is checked: ATC and UN must make 6 bytes (normally 2 + 4).
    /// - Parameters:
    ///   - iccMasterKey: The 16-byte ICC master key.
    ///   - atc: The application transaction counter (tag 9F36).
    ///   - unpredictableNumber: The terminal's unpredictable number (tag 9F37).
    /// - Returns: The 16-byte session key.
    public static func mastercard(
        iccMasterKey: [UInt8],
        atc: [UInt8],
        unpredictableNumber: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let masterKey = try DoubleLengthKey(iccMasterKey, name: "ICC master key").schedule
        let r = try mastercardDiversification(atc: atc[...], unpredictableNumber: unpredictableNumber[...])
        return common(masterKey, r: r).bytes
    }

    /// Visa secure messaging session key (VIS): key A ⊕ (00…00 ‖ ATC) ‖ key B ⊕ (00…00 ‖ ¬ATC), odd parity.
    ///
    /// Same as pyemv `kd.derive_visa_sm_sk(icc_mk, atc)`.
    /// - Parameters:
    ///   - iccMasterKey: The 16-byte ICC master key for secure messaging.
    ///   - atc: The application transaction counter (tag 9F36), 2 bytes.
    /// - Returns: The 16-byte session key.
    public static func visaSecureMessaging(iccMasterKey: [UInt8], atc: [UInt8]) throws(CryptoError) -> [UInt8] {
        let masterKey = try DoubleLengthKey(iccMasterKey, name: "ICC master key")
        let counter = UInt64(try atcValue(atc[...]))
        return DoubleLengthKey(left: masterKey.left ^ counter, right: masterKey.right ^ (counter ^ 0xFFFF))
            .withOddParity.bytes
    }

    /// EMV2000 tree session key derivation (EMV 4.1 Book 2, A1.3; replaced by the common derivation in SU-46).
    ///
    /// With F(X, Y, j) = TDES(X)[Y_L ⊕ (j mod b)] ‖ TDES(X)[Y_R ⊕ (j mod b) ⊕ F0], the intermediate keys run from
    /// the ICC master key (grandparent IV) down `height` levels indexed by the ATC in base `branchFactor`, and
    /// SK = F(parent, grandparent, ATC) ⊕ grandparent, odd parity. Same as pyemv
    /// `kd.derive_emv2000_tree_sk(icc_mk, atc, height, branch_factor, iv)`, including Python's floor division
    /// and modulo for negative branch factors (pyemv then fails unless every level's remainder is zero).
    /// - Parameters:
    ///   - iccMasterKey: The 16-byte ICC master key.
    ///   - atc: The application transaction counter (tag 9F36), 2 bytes.
    ///   - height: Levels of the tree; `branchFactor` to that power must reach 65535.
    ///   - branchFactor: Children per key.
    ///   - iv: The 16-byte initial grandparent value.
    /// - Returns: The 16-byte session key.
    public static func emv2000Tree(
        iccMasterKey: [UInt8],
        atc: [UInt8],
        height: Int = 8,
        branchFactor: Int = 4,
        iv: [UInt8] = [UInt8](repeating: 0, count: 16)
    ) throws(CryptoError) -> [UInt8] {
        let masterKey = try DoubleLengthKey(iccMasterKey, name: "ICC master key")
        let counter = try atcValue(atc[...])
        guard iv.count == 16 else {
            throw CryptoError(.invalidIVLength, "EMV2000 tree IV must be 16 bytes, got \(iv.count)")
        }
        guard treeCoversATC(height: height, branchFactor: branchFactor) else {
            throw CryptoError(.invalidParameter, "branch factor to the power of the height must reach 65535")
        }
        guard height <= maximumTreeHeight else {
            throw CryptoError(.invalidParameter, "EMV2000 tree height above \(maximumTreeHeight)")
        }
        // The index of each level, top (the ATC itself) first, by Python's floor division.
        var indexes = [Int(counter)]
        for _ in 1..<height {
            indexes.append(floorDivide(indexes[indexes.count - 1], branchFactor))
        }
        var parent = masterKey
        var grandparent = try DoubleLengthKey(iv, name: "EMV2000 tree IV")
        for index in indexes.dropFirst().reversed() {
            (parent, grandparent) = (try treeStep(parent, grandparent, index, branchFactor), parent)
        }
        let last = try treeStep(parent, grandparent, Int(counter), branchFactor)
        return DoubleLengthKey(left: last.left ^ grandparent.left, right: last.right ^ grandparent.right)
            .withOddParity.bytes
    }

    // MARK: - Internals shared with the cryptogram versions

    /// The common session key under an already scheduled ICC master key.
    static func common(_ masterKey: TDESKey, r: UInt64) -> DoubleLengthKey {
        let third: UInt64 = 0x0000_FF00_0000_0000
        let (left, right) = masterKey.encrypt(
            r & ~third | 0x0000_F000_0000_0000, r & ~third | 0x0000_0F00_0000_0000)
        return DoubleLengthKey(left: left, right: right).withOddParity
    }

    /// R as a block; pyemv refuses anything but 8 bytes.
    static func diversificationBlock(_ r: [UInt8]) throws(CryptoError) -> UInt64 {
        try CryptoError.checkLength(r, 8, "diversification value")
        return BigEndianBlock.load(r)
    }

    /// R = ATC ‖ 00 00 00 00 00 00.
    static func atcDiversification(_ atc: ArraySlice<UInt8>) throws(CryptoError) -> UInt64 {
        UInt64(try atcValue(atc)) << 48
    }

    /// R = ATC ‖ 00 00 ‖ UN; only the total of 8 bytes is checked, as pyemv does.
    static func mastercardDiversification(
        atc: ArraySlice<UInt8>,
        unpredictableNumber: ArraySlice<UInt8>
    ) throws(CryptoError) -> UInt64 {
        guard atc.count + unpredictableNumber.count == 6 else {
            throw CryptoError(
                .invalidFieldLength,
                "ATC and unpredictable number must make 6 bytes, got \(atc.count) + \(unpredictableNumber.count)"
            )
        }
        // ATC ‖ 00 00 ‖ UN, folded byte by byte instead of concatenated.
        let atcPart = atc.reduce(0) { $0 << 8 | UInt64($1) }
        return unpredictableNumber.reduce(atcPart << 16) { $0 << 8 | UInt64($1) }
    }

    /// A 2-byte ATC as a number.
    static func atcValue(_ atc: ArraySlice<UInt8>) throws(CryptoError) -> UInt16 {
        try CryptoError.checkLength(atc, 2, "ATC")
        return UInt16(atc[atc.startIndex]) << 8 | UInt16(atc[atc.startIndex + 1])
    }

    /// Python's `branch_factor ** height >= 65535`, without overflow.
    static func treeCoversATC(height: Int, branchFactor: Int) -> Bool {
        // A height of zero or less gives 1, a fraction or a division by zero in Python: never enough.
        guard height > 0, branchFactor.magnitude > 1 else { return false }
        if branchFactor < 0 && height % 2 == 1 { return false }
        var power: UInt = 1
        for _ in 0..<height {
            let (product, overflow) = power.multipliedReportingOverflow(by: branchFactor.magnitude)
            if overflow || product >= 65535 { return true }
            power = product
        }
        return false
    }

    /// F(X, Y, j) of the EMV2000 tree.
    static func treeStep(
        _ x: DoubleLengthKey,
        _ y: DoubleLengthKey,
        _ index: Int,
        _ branchFactor: Int
    ) throws(CryptoError) -> DoubleLengthKey {
        let remainder = index - floorDivide(index, branchFactor) * branchFactor
        // pyemv writes j mod b as an unsigned 8-byte integer, which fails for the negative remainders of a
        // negative branch factor.
        guard remainder >= 0 else {
            throw CryptoError(.invalidParameter, "EMV2000 tree index is negative for this branch factor")
        }
        let mask = UInt64(remainder)
        let (left, right) = x.schedule.encrypt(y.left ^ mask, y.right ^ mask ^ 0xF0)
        return DoubleLengthKey(left: left, right: right)
    }

    /// Python's `//`: the quotient rounded toward negative infinity.
    static func floorDivide(_ a: Int, _ b: Int) -> Int {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }
}
