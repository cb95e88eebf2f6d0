/// The fields of the issuer application data (tag 9F10) that cryptograms use, read by the scheme's layout.
///
/// Visa CVN 10 and Mastercard's versions put the CVR (and Mastercard CVN 17 and 21 the counters) into the AC
/// data rather than the whole IAD; this finds them. For the typed layouts, to build an IAD as well as read it, see
/// ``VisaIssuerApplicationData``, ``VisaFormat2IssuerApplicationData`` and ``MastercardIssuerApplicationData``.
public struct IssuerApplicationData: Sendable, Hashable {
    /// The derivation key index: which issuer master key the card's keys come from.
    public let derivationKeyIndex: UInt8
    /// The cryptogram version number (``CryptogramVersion/number``).
    public let cryptogramVersionNumber: UInt8
    /// The card verification results as the cryptogram takes them: 4 bytes for Visa formats 0, 1 and 3 (its
    /// length byte `03` and three bytes), 5 for Visa format 2, 6 for Mastercard.
    public let cardVerificationResults: [UInt8]
    /// Mastercard's counters (8 bytes), empty for Visa.
    public let counters: [UInt8]

    /// Reads Visa's IAD formats 0, 1 and 3 (VIS 1.5 and 1.6):
    /// `06` ‖ DKI ‖ CVN ‖ CVR (4 bytes) ‖ optional issuer discretionary data; and format 2 (VIS 1.6, CVN 22):
    /// `1F` ‖ CVN ‖ DKI ‖ CVR (5 bytes) ‖ issuer discretionary data (``VisaFormat2IssuerApplicationData``).
    /// - Throws: ``CryptoError/invalidFieldLength`` when the data is shorter than 7 bytes or does not start
    ///   with its length `06`, or starts with `1F` but is not 32 bytes long.
    public init(visa bytes: [UInt8]) throws(CryptoError) {
        if bytes.first == VisaFormat2IssuerApplicationData.lengthByte {
            let format2 = try VisaFormat2IssuerApplicationData(bytes: bytes)
            derivationKeyIndex = format2.derivationKeyIndex
            cryptogramVersionNumber = format2.cryptogramVersionNumber
            cardVerificationResults = format2.cardVerificationResults.bytes
            counters = []
            return
        }
        guard bytes.count >= 7, bytes[0] == 0x06 else {
            throw CryptoError(
                .invalidFieldLength,
                "Visa IAD formats 0, 1 and 3 start with 06 and have at least 7 bytes, got \(bytes.count)"
            )
        }
        derivationKeyIndex = bytes[1]
        cryptogramVersionNumber = bytes[2]
        cardVerificationResults = Array(bytes[3..<7])
        counters = []
    }

    /// Reads Mastercard's M/Chip 4 and M/Chip Advance IAD:
    /// DKI ‖ CVN ‖ CVR (6 bytes) ‖ DAC or ICC dynamic number (2 bytes) ‖ counters (8 bytes) ‖ optional data.
    /// - Throws: ``CryptoError/invalidFieldLength`` when the data is shorter than 18 bytes.
    public init(mastercard bytes: [UInt8]) throws(CryptoError) {
        guard bytes.count >= 18 else {
            throw CryptoError(.invalidFieldLength, "Mastercard IAD has at least 18 bytes, got \(bytes.count)")
        }
        derivationKeyIndex = bytes[0]
        cryptogramVersionNumber = bytes[1]
        cardVerificationResults = Array(bytes[2..<8])
        counters = Array(bytes[10..<18])
    }
}
