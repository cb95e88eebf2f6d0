/// A token the digitization service provisioned: its opaque id mapped to the vault's token, and the highest ATC
/// a payment key was issued for (replenishment continues above it).
public struct DigitizedTokenRecord: Sendable, Hashable, CustomStringConvertible {
    /// The opaque token id given to the wallet.
    public let tokenID: String
    /// The vault's token, by keyed DPAN hash.
    public let keyedDPAN: KeyedPANHash
    /// The wallet it was provisioned for.
    public let walletID: String
    /// The device it lives on.
    public let deviceID: String
    /// The highest ATC a payment key has been issued for.
    public var highestIssuedATC: UInt16

    /// Creates a record.
    public init(
        tokenID: String, keyedDPAN: KeyedPANHash, walletID: String, deviceID: String, highestIssuedATC: UInt16
    ) {
        self.tokenID = tokenID
        self.keyedDPAN = keyedDPAN
        self.walletID = walletID
        self.deviceID = deviceID
        self.highestIssuedATC = highestIssuedATC
    }

    /// The token id and high-water mark.
    public var description: String { "DigitizedTokenRecord(\(tokenID), keys up to ATC \(highestIssuedATC))" }
}
