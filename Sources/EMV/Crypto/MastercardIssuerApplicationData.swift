/// Mastercard's issuer application data (tag 9F10) of M/Chip 4 and M/Chip Advance (CVN 16, 17, 20, 21).
///
/// Layout: key derivation index ‖ CVN ‖ CVR (6 bytes) ‖ DAC or ICC dynamic number (2 bytes) ‖ counters (8
/// bytes) ‖ optional data (M/Chip Advance may add e.g. the last online ATC), 18 bytes or more; pyemv's
/// `test_cvn_hsm.py` M/Chip IAD `0111A00003220000000000000000000322FF` has this shape. Source: M/Chip 4 Card
/// Application Specifications, "Issuer Application Data"; the 32-byte M/Chip Advance variants are read with
/// their extra bytes in ``additionalData``, not named.
public struct MastercardIssuerApplicationData: Sendable, Hashable {
    /// The shortest IAD: up to the end of the counters.
    public static let minimumByteCount = 18

    /// The key derivation index.
    public var derivationKeyIndex: UInt8
    /// The cryptogram version number (``CryptogramVersion/number``), e.g. `10`, `11`, `14`, `15`.
    public var cryptogramVersionNumber: UInt8
    /// The card verification results.
    public var cardVerificationResults: MastercardCardVerificationResults
    /// The data authentication code (SDA cards) or ICC dynamic number (DDA/CDA cards), 2 bytes.
    public var dataAuthenticationCode: UInt16
    /// The counters, 8 bytes, which CVN 17 and 21 put in the AC data.
    public private(set) var counters: [UInt8]
    /// What follows the counters, if anything.
    public var additionalData: [UInt8]

    /// Creates the data from its fields.
    /// - Throws: ``CryptoError/invalidFieldLength`` unless the counters are 8 bytes.
    public init(
        derivationKeyIndex: UInt8, cryptogramVersionNumber: UInt8,
        cardVerificationResults: MastercardCardVerificationResults, dataAuthenticationCode: UInt16 = 0,
        counters: [UInt8] = [UInt8](repeating: 0, count: 8), additionalData: [UInt8] = []
    ) throws(CryptoError) {
        try CryptoError.checkLength(counters, 8, "Mastercard IAD counters")
        self.derivationKeyIndex = derivationKeyIndex
        self.cryptogramVersionNumber = cryptogramVersionNumber
        self.cardVerificationResults = cardVerificationResults
        self.dataAuthenticationCode = dataAuthenticationCode
        self.counters = counters
        self.additionalData = additionalData
    }

    /// Reads the IAD.
    /// - Throws: ``CryptoError/invalidFieldLength`` when the data is shorter than 18 bytes.
    public init(bytes: some Collection<UInt8>) throws(CryptoError) {
        let bytes = Array(bytes)
        guard bytes.count >= Self.minimumByteCount else {
            throw CryptoError(.invalidFieldLength, "Mastercard IAD has at least 18 bytes, got \(bytes.count)")
        }
        let cvr = bytes[2..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        try self.init(
            derivationKeyIndex: bytes[0], cryptogramVersionNumber: bytes[1],
            cardVerificationResults: MastercardCardVerificationResults(rawValue: cvr),
            dataAuthenticationCode: UInt16(bytes[8]) << 8 | UInt16(bytes[9]),
            counters: Array(bytes[10..<18]), additionalData: Array(bytes[18...])
        )
    }

    /// The encoded IAD, 18 bytes plus ``additionalData``.
    public var bytes: [UInt8] {
        [derivationKeyIndex, cryptogramVersionNumber] + cardVerificationResults.bytes
            + [UInt8(dataAuthenticationCode >> 8), UInt8(truncatingIfNeeded: dataAuthenticationCode)] + counters
            + additionalData
    }
}
