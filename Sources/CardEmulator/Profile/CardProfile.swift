import EMV
import Foundation

/// Everything an issuer personalises into a payment card: account data, applications, file layout, data object
/// lists, keys and offline data authentication data, read from (and written to) readable JSON.
///
/// Bytes are hexadecimal text, amounts integer minor units. ``personalize(on:environment:)`` turns a profile into an
/// ``EmulatedCard``; ``visaTest``, ``mastercardTest`` and ``mastercardMagStripeTest`` are ready test cards issued
/// under the shipped test CA (``testCertificateAuthorities``).
///
/// A profile holds the PAN and issuer master keys: its description and mirror name the profile only.
public struct CardProfile: Codable, Sendable, CustomStringConvertible, CustomReflectable {
    /// How the card's application behaves: Visa qVSDC (Book C-3) or Mastercard M/Chip (Book C-2).
    public enum Scheme: String, Codable, Sendable, Hashable {
        /// Visa: the cryptogram comes back in the GET PROCESSING OPTIONS response (qVSDC), fDDA.
        case visa
        /// Mastercard: GENERATE AC with CDA, or mag-stripe mode when the AIP has no EMV mode.
        case mastercard
    }

    /// A readable name, e.g. "Visa qVSDC test card".
    public var name: String
    /// The behaviour family.
    public var scheme: Scheme
    /// The application PAN as digits (tag 5A).
    public var pan: String
    /// The PAN sequence number as two digits (tag 5F34), e.g. "01".
    public var panSequenceNumber: String
    /// The application expiration date as `YYYY-MM` (tag 5F24 carries its last day).
    public var expiry: String
    /// The cardholder name (tag 5F20), when the card carries one.
    public var cardholderName: String?
    /// The service code of track 2 (three digits), e.g. "201".
    public var serviceCode: String
    /// Track 2 discretionary data as digits.
    public var track2DiscretionaryData: String
    /// Issuer country code, ISO 3166 numeric as `n3` in two bytes (tag 5F28), e.g. "0826".
    public var issuerCountryCode: HexBytes
    /// Application currency code, ISO 4217 numeric (tag 9F42), e.g. "0826".
    public var applicationCurrencyCode: HexBytes
    /// Language preference (tag 5F2D) as ASCII, e.g. "en".
    public var languagePreference: String?
    /// The applications the PPSE and PSE list; they share the card's data.
    public var applications: [Application]
    /// Application interchange profile (tag 82), 2 bytes.
    public var applicationInterchangeProfile: HexBytes
    /// The records, in AFL order; the AFL (tag 94) is computed from them.
    public var records: [Record]
    /// Data objects for records that the profile has no field for, by tag in hex (e.g. `"9F07": "FFC0"`).
    public var additionalData: [String: HexBytes]
    /// Processing options data object list (tag 9F38), returned in the FCI; nil for a card without one.
    public var pdol: HexBytes?
    /// Card risk management data object list 1 (tag 8C), for GENERATE AC.
    public var cdol1: HexBytes?
    /// Card risk management data object list 2 (tag 8D), for a second GENERATE AC.
    public var cdol2: HexBytes?
    /// The cryptogram version by name: `visa18`, `mastercard20` or `mastercard21` (session keys from the ATC only,
    /// so limited-use keys can be precomputed).
    public var cryptogramVersion: String
    /// Derivation key index written into the issuer application data.
    public var derivationKeyIndex: UInt8
    /// The issuer's master keys that the card's keys derive from.
    public var issuerMasterKeys: IssuerMasterKeys
    /// The ATC of the first limited-use key.
    public var startingATC: UInt16
    /// How many limited-use keys personalisation precomputes, and how long they stay valid.
    public var limitedUseKeys: LimitedUseKeyPolicy
    /// Offline data authentication data issued under the test CA; nil for a card without ODA.
    public var offlineDataAuthentication: OfflineDataAuthentication?
    /// Consumer device CVM (the wallet authenticates the cardholder).
    public var consumerDeviceCVM: ConsumerDeviceCVM
    /// CVM list (tag 8E) bytes, when records carry one.
    public var cvmList: HexBytes?
    /// Issuer action codes (tags 9F0D, 9F0E, 9F0F), which the card also applies to the terminal's TVR.
    public var issuerActionCodes: IssuerActionCodes?
    /// Visa: the card transaction qualifiers (tag 9F6C) before this transaction's CVM bits.
    public var cardTransactionQualifiers: HexBytes?
    /// Visa: form factor indicator (tag 9F6E), returned in the GPO response.
    public var formFactorIndicator: HexBytes?
    /// The highest amount, in minor units, the card approves offline (TC); above it the card goes online.
    public var offlineLimit: Int
    /// The card's offline plaintext PIN (VERIFY, for contact tools); nil when the card has no offline PIN.
    public var offlinePIN: String?
    /// PIN try limit: the PIN try counter (tag 9F17) starts here.
    public var pinTryLimit: UInt8
    /// Log format (tag 9F4F) for GET DATA; nil when the card keeps no log.
    public var logFormat: HexBytes?
    /// Mastercard mag-stripe mode data; nil for a card without mag-stripe mode.
    public var magStripe: MagStripe?
    /// Whether GET PROCESSING OPTIONS with an empty `83 00` is accepted although the card has a PDOL, as contact
    /// tools (emvtool) send it; strict cards answer 6700.
    public var acceptsEmptyPDOLData: Bool

    /// Creates a profile from its fields.
    public init(
        name: String, scheme: Scheme, pan: String, panSequenceNumber: String, expiry: String,
        cardholderName: String? = nil, serviceCode: String, track2DiscretionaryData: String,
        issuerCountryCode: HexBytes, applicationCurrencyCode: HexBytes, languagePreference: String? = nil,
        applications: [Application], applicationInterchangeProfile: HexBytes, records: [Record],
        additionalData: [String: HexBytes] = [:], pdol: HexBytes? = nil, cdol1: HexBytes? = nil,
        cdol2: HexBytes? = nil, cryptogramVersion: String, derivationKeyIndex: UInt8 = 1,
        issuerMasterKeys: IssuerMasterKeys, startingATC: UInt16 = 1, limitedUseKeys: LimitedUseKeyPolicy,
        offlineDataAuthentication: OfflineDataAuthentication? = nil, consumerDeviceCVM: ConsumerDeviceCVM,
        cvmList: HexBytes? = nil, issuerActionCodes: IssuerActionCodes? = nil,
        cardTransactionQualifiers: HexBytes? = nil, formFactorIndicator: HexBytes? = nil, offlineLimit: Int = 0,
        offlinePIN: String? = nil, pinTryLimit: UInt8 = 3, logFormat: HexBytes? = nil, magStripe: MagStripe? = nil,
        acceptsEmptyPDOLData: Bool = false
    ) {
        self.name = name
        self.scheme = scheme
        self.pan = pan
        self.panSequenceNumber = panSequenceNumber
        self.expiry = expiry
        self.cardholderName = cardholderName
        self.serviceCode = serviceCode
        self.track2DiscretionaryData = track2DiscretionaryData
        self.issuerCountryCode = issuerCountryCode
        self.applicationCurrencyCode = applicationCurrencyCode
        self.languagePreference = languagePreference
        self.applications = applications
        self.applicationInterchangeProfile = applicationInterchangeProfile
        self.records = records
        self.additionalData = additionalData
        self.pdol = pdol
        self.cdol1 = cdol1
        self.cdol2 = cdol2
        self.cryptogramVersion = cryptogramVersion
        self.derivationKeyIndex = derivationKeyIndex
        self.issuerMasterKeys = issuerMasterKeys
        self.startingATC = startingATC
        self.limitedUseKeys = limitedUseKeys
        self.offlineDataAuthentication = offlineDataAuthentication
        self.consumerDeviceCVM = consumerDeviceCVM
        self.cvmList = cvmList
        self.issuerActionCodes = issuerActionCodes
        self.cardTransactionQualifiers = cardTransactionQualifiers
        self.formFactorIndicator = formFactorIndicator
        self.offlineLimit = offlineLimit
        self.offlinePIN = offlinePIN
        self.pinTryLimit = pinTryLimit
        self.logFormat = logFormat
        self.magStripe = magStripe
        self.acceptsEmptyPDOLData = acceptsEmptyPDOLData
    }

    /// The name and scheme; never the PAN or keys.
    public var description: String { "CardProfile(\(name), \(scheme))" }

    /// Name and scheme only, so `dump` cannot show card data either.
    public var customMirror: Mirror {
        Mirror(self, children: ["name": name, "scheme": scheme], displayStyle: .struct)
    }
}
