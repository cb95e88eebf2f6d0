public import EMV

/// A wallet's question to the issuer: may this card be digitized onto this device?
///
/// The description shows the PAN masked only.
public struct EligibilityRequest: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The funding card's PAN, as the cardholder typed or scanned it.
    public var fundingPAN: PAN
    /// The card's expiry date as printed; must be the account's.
    public var expiry: ExpiryDate
    /// The wallet (token requestor) asking, e.g. a wallet provider's id.
    public var walletID: String
    /// The device the token will live on.
    public var deviceID: String

    /// Creates a request.
    public init(fundingPAN: PAN, expiry: ExpiryDate, walletID: String, deviceID: String) {
        self.fundingPAN = fundingPAN
        self.expiry = expiry
        self.walletID = walletID
        self.deviceID = deviceID
    }

    /// `EligibilityRequest(476173******0119, wallet, device)`.
    public var description: String { "EligibilityRequest(\(fundingPAN.masked), \(walletID), \(deviceID))" }

    /// The masked PAN, wallet and device only.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["fundingPAN": fundingPAN.masked, "walletID": walletID, "deviceID": deviceID],
            displayStyle: .struct)
    }
}
