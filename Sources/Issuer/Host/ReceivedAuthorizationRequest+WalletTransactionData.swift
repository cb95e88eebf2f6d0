import EMV
import ISO8583

extension ReceivedAuthorizationRequest {
    /// Mastercard: the wallet transaction data in the IAD (9F10), the bytes after M/Chip's 18 (offset 18, at most
    /// 14; see `EmulatedCard.setWalletTransactionData`); nil for other layouts or an IAD of 18 bytes or fewer.
    func walletTransactionData(for version: CryptogramVersion) -> [UInt8]? {
        guard version.issuerApplicationDataFormat == .mastercard, let iad = iccData.first(.issuerApplicationData),
            iad.value.count > MastercardIssuerApplicationData.minimumByteCount
        else { return nil }
        return Array(iad.value.dropFirst(MastercardIssuerApplicationData.minimumByteCount))
    }
}
