public import EMV

/// A card account at the issuer: found by the keyed hash of its PAN, with the PAN encrypted at rest, its status,
/// expiry, currency, balance and limits, PIN verification value and the state authorization keeps (last ATC,
/// wrong PIN count).
///
/// Money is in the currency's minor units. The description never shows the PAN, the encrypted PAN or the PIN
/// verification value.
public struct CardAccount: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// Whether the account may authorize.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// In good standing.
        case active
        /// Reported lost (answered `41`).
        case lost
        /// Reported stolen (answered `43`).
        case stolen
        /// Past its expiry (answered `54`).
        case expired
        /// Blocked by the issuer (answered `05`).
        case blocked
    }

    /// The lookup key: HMAC-SHA256 of the PAN under the PAN hash key.
    public let keyedPAN: KeyedPANHash
    /// The PAN under AES-256-GCM (nonce ‖ ciphertext ‖ tag), authenticated with the keyed hash.
    public let encryptedPAN: [UInt8]
    /// The BIN and last four digits, for display.
    public let maskedPAN: String
    /// The account's status.
    public var status: Status
    /// The expiry the cards of the account carry.
    public var expiry: ExpiryDate
    /// The account's currency; authorizations in another currency are refused.
    public var currency: Currency
    /// The available balance, in minor units.
    public var availableBalance: Int
    /// The largest amount of one authorization, in minor units; nil for no limit.
    public var perTransactionLimit: Int?
    /// Amounts above this need online PIN, in minor units; nil for never by amount.
    public var onlinePINLimit: Int?
    /// Online PIN on every authorization (the issuer wants strong customer authentication).
    public var requiresStrongCustomerAuthentication: Bool
    /// HMAC-SHA256 of PAN and PIN under the PIN verification key; nil when the account has no PIN (every PIN is
    /// then wrong).
    public var pinVerificationValue: [UInt8]?
    /// Wrong PINs in a row; at ``pinTryLimit`` PIN transactions are refused until reset.
    public var wrongPINCount: Int
    /// The number of wrong PINs that blocks online PIN.
    public var pinTryLimit: Int
    /// The highest ATC of a verified cryptogram; nil before the first.
    public var lastATC: UInt16?
    /// The ATC of the cryptogram last answered "PIN required" (`65`): that cryptogram may come back once more per
    /// PIN try, now with a PIN (single tap and PIN: the reader asks for the PIN without a second tap).
    public var pinPendingATC: UInt16?
    /// Test accounts only: the host never answers this card's requests (a simulated issuer timeout).
    public var simulatesNoResponse: Bool

    /// Creates an account from stored parts; ``IssuerKeys/openAccount(pan:pin:expiry:currency:availableBalance:)``
    /// makes a new one from a PAN.
    public init(
        keyedPAN: KeyedPANHash, encryptedPAN: [UInt8], maskedPAN: String, status: Status = .active,
        expiry: ExpiryDate, currency: Currency, availableBalance: Int, perTransactionLimit: Int? = nil,
        onlinePINLimit: Int? = nil, requiresStrongCustomerAuthentication: Bool = false,
        pinVerificationValue: [UInt8]? = nil, wrongPINCount: Int = 0, pinTryLimit: Int = 3, lastATC: UInt16? = nil,
        pinPendingATC: UInt16? = nil, simulatesNoResponse: Bool = false
    ) {
        self.keyedPAN = keyedPAN
        self.encryptedPAN = encryptedPAN
        self.maskedPAN = maskedPAN
        self.status = status
        self.expiry = expiry
        self.currency = currency
        self.availableBalance = availableBalance
        self.perTransactionLimit = perTransactionLimit
        self.onlinePINLimit = onlinePINLimit
        self.requiresStrongCustomerAuthentication = requiresStrongCustomerAuthentication
        self.pinVerificationValue = pinVerificationValue
        self.wrongPINCount = wrongPINCount
        self.pinTryLimit = pinTryLimit
        self.lastATC = lastATC
        self.pinPendingATC = pinPendingATC
        self.simulatesNoResponse = simulatesNoResponse
    }

    /// `CardAccount(476173******0119, active, 100.00 EUR)`.
    public var description: String {
        let balance = Amount(minorUnits: availableBalance, currency: currency)
        return "CardAccount(\(maskedPAN), \(status.rawValue), \(balance.formatted))"
    }

    /// The masked PAN, status and balance only.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["maskedPAN": maskedPAN, "status": status, "availableBalance": availableBalance],
            displayStyle: .struct)
    }
}
