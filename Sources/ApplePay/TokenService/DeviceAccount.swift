public import EMV

/// A card provisioned on the simulated device: the device account number (DPAN) the issuer's token vault maps to
/// the funding card, and what the sheet shows about it.
///
/// Its description shows the account number masked (BIN and last four), never whole.
public struct DeviceAccount: Hashable, Sendable, CustomStringConvertible {
    /// The device account number.
    public var accountNumber: PAN
    /// The device account's expiry.
    public var expiry: ExpiryDate
    /// The payment network, as PassKit names it ("Visa", "MasterCard", …).
    public var network: String
    /// "credit", "debit", "prepaid", "store", "eMoney" or "unknown".
    public var type: String
    /// The cardholder's name, when the device has it.
    public var cardholderName: String?
    /// Hex identifier of the device's secure element manufacturer, as payloads carry it.
    public var deviceManufacturerIdentifier: String

    /// An account from its parts.
    public init(
        accountNumber: PAN, expiry: ExpiryDate, network: String, type: String = "credit",
        cardholderName: String? = nil, deviceManufacturerIdentifier: String = "040010030273"
    ) {
        self.accountNumber = accountNumber
        self.expiry = expiry
        self.network = network
        self.type = type
        self.cardholderName = cardholderName
        self.deviceManufacturerIdentifier = deviceManufacturerIdentifier
    }

    /// What the sheet shows: the network and the last four digits, as in "Visa 1234".
    public var displayName: String { "\(network) \(accountNumber.lastFour)" }

    /// The network and the masked account number.
    public var description: String { "DeviceAccount(\(network) \(accountNumber.masked))" }
}
