extension EmulatedCard {
    /// The most wallet transaction data a Mastercard IAD carries: 14 bytes, after the 18 bytes of M/Chip's fields.
    public static let maximumWalletTransactionDataCount = 14

    /// Sets the wallet transaction data of the following transactions: bytes the wallet passes to the issuer in the
    /// issuer application data (9F10) of its Mastercard cryptograms. Empty clears it.
    ///
    /// The IAD is M/Chip's 18 bytes (key derivation index, CVN, CVR, DAC or ICC dynamic number, counters) followed
    /// by exactly these bytes: the data starts at offset 18 (byte 19) and the IAD is 18 + count bytes, at most 32.
    /// Source: Thales TSH Pay SDK (iOS 7.3), `WalletTransactionData`: "wallet proprietary data for Mastercard
    /// scheme MCBP 2.x and above … a maximum of 14 bytes … included in the Issuer Application Data (IAD) tag,
    /// starting from index 18". Mastercard CVN 20 and 21 compute the AC over the CVR (and counters) taken from the
    /// IAD, not the whole IAD, so the data does not change the cryptogram.
    /// - Throws: ``CardEmulatorError/invalidWalletTransactionData`` for more than 14 bytes, or on a Visa card.
    public mutating func setWalletTransactionData(_ data: [UInt8]) throws(CardEmulatorError) {
        guard image.scheme == .mastercard || data.isEmpty else {
            throw CardEmulatorError(
                .invalidWalletTransactionData, "only Mastercard cards carry wallet transaction data")
        }
        guard data.count <= Self.maximumWalletTransactionDataCount else {
            throw CardEmulatorError(
                .invalidWalletTransactionData,
                "wallet transaction data is at most \(Self.maximumWalletTransactionDataCount) bytes, got \(data.count)")
        }
        walletTransactionData = data
    }
}
