/// An ISO 8583 response code (field 39): two characters, `00` approved, anything else declined or an error.
///
/// The issuer host answers only the codes its `AuthorizationResult` maps to; the Issuer module's documentation lists
/// them.
public struct ResponseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The two characters of field 39.
    public let rawValue: String

    /// Wraps a field 39 value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `00` approved (or, in a 0410, reversal accepted).
    public static let approved = Self(rawValue: "00")
    /// `05` do not honour.
    public static let doNotHonour = Self(rawValue: "05")
    /// `12` invalid transaction.
    public static let invalidTransaction = Self(rawValue: "12")
    /// `14` invalid card number (no such account).
    public static let invalidCardNumber = Self(rawValue: "14")
    /// `25` unable to locate the original (reversal of an authorization the host does not know).
    public static let originalNotFound = Self(rawValue: "25")
    /// `30` format error: a required field is missing or unreadable.
    public static let formatError = Self(rawValue: "30")
    /// `40` requested function not supported (an MTI the host does not serve).
    public static let functionNotSupported = Self(rawValue: "40")
    /// `41` lost card, pick up.
    public static let lostCard = Self(rawValue: "41")
    /// `43` stolen card, pick up.
    public static let stolenCard = Self(rawValue: "43")
    /// `51` insufficient funds.
    public static let insufficientFunds = Self(rawValue: "51")
    /// `54` expired card.
    public static let expiredCard = Self(rawValue: "54")
    /// `55` incorrect PIN.
    public static let incorrectPIN = Self(rawValue: "55")
    /// `61` exceeds the per-transaction amount limit.
    public static let exceedsAmountLimit = Self(rawValue: "61")
    /// `63` security violation: here, an ATC not greater than the last one seen (a replayed cryptogram).
    public static let cryptogramReplayed = Self(rawValue: "63")
    /// `65` online PIN required (Mastercard's soft decline for strong customer authentication; Visa uses `1A`).
    public static let pinRequired = Self(rawValue: "65")
    /// `75` allowable number of PIN tries exceeded.
    public static let pinTriesExceeded = Self(rawValue: "75")
    /// `88` cryptographic failure (Mastercard's code): the ARQC does not verify, or the request's amount or
    /// currency differ from what the cryptogram covers.
    public static let cryptogramFailure = Self(rawValue: "88")
    /// `96` system malfunction: no issuer keys for the card's BIN, or the repository failed.
    public static let systemMalfunction = Self(rawValue: "96")

    /// The two characters.
    public var description: String { rawValue }

    /// The two characters as bytes, the ARPC response code of method 1 (EMV Book 2, 8.2.1).
    public var arpcResponseCode: [UInt8] { Array(rawValue.utf8.prefix(2)) }
}
