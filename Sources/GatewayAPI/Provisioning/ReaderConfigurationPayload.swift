public import EMV
import Foundation

/// The reader configuration a prepared device runs its kernels with: terminal data, accepted AIDs with their
/// kernels, contactless limits per kernel and currency (minor units), kernel settings (the Visa TTQ, the Mastercard
/// DF81xx data) and the CA public keys for offline data authentication.
///
/// Its JSON is exactly the JSON form of `ReaderKernel.ReaderConfiguration` (byte strings as hex, the country by its
/// alpha-2 code, currencies by their alphabetic code, the CA keys in `CAPublicKeyList`'s array format), so a reader
/// SDK decodes this object straight into the kernel's configuration, which validates every field. The fields here
/// stay as on the wire; the typed initialisers say what goes in them.
public struct ReaderConfigurationPayload: Sendable, Hashable, Codable {
    /// Terminal Country Code (9F1A), ISO 3166-1 alpha-2.
    public var terminalCountry: String
    /// Terminal Type (9F35), one byte in hex.
    public var terminalType: String
    /// Terminal Capabilities (9F33), three bytes in hex.
    public var terminalCapabilities: String
    /// Additional Terminal Capabilities (9F40), five bytes in hex.
    public var additionalTerminalCapabilities: String
    /// Merchant Category Code (9F15), four digits.
    public var merchantCategoryCode: String
    /// Merchant Name and Location (9F4E).
    public var merchantNameAndLocation: String
    /// Merchant Identifier (9F16): the merchant's card acceptor id, ISO 8583 field 42 (15 characters).
    public var merchantIdentifier: String
    /// Terminal Identification (9F1C): the device's terminal id, ISO 8583 field 41 (8 characters).
    public var terminalIdentifier: String
    /// Interface Device Serial Number (9F1E), 8 characters.
    public var ifdSerialNumber: String
    /// The accepted applications.
    public var applications: [Application]
    /// Limits per kernel and currency.
    public var limits: [Limits]
    /// Kernel 3 (Visa) settings.
    public var kernel3: Kernel3
    /// Kernel 2 (Mastercard) settings.
    public var kernel2: Kernel2
    /// The CA public keys.
    public var caPublicKeys: [CAPublicKeyEntry]

    /// Creates a configuration from typed values.
    public init(
        terminalCountry: Country, terminalType: UInt8, terminalCapabilities: [UInt8],
        additionalTerminalCapabilities: [UInt8], merchantCategoryCode: String, merchantNameAndLocation: String,
        merchantIdentifier: String, terminalIdentifier: String, ifdSerialNumber: String,
        applications: [Application], limits: [Limits], kernel3: Kernel3, kernel2: Kernel2,
        caPublicKeys: CAPublicKeyList
    ) throws {
        self.terminalCountry = terminalCountry.alpha2
        self.terminalType = [terminalType].hexString
        self.terminalCapabilities = terminalCapabilities.hexString
        self.additionalTerminalCapabilities = additionalTerminalCapabilities.hexString
        self.merchantCategoryCode = merchantCategoryCode
        self.merchantNameAndLocation = merchantNameAndLocation
        self.merchantIdentifier = merchantIdentifier
        self.terminalIdentifier = terminalIdentifier
        self.ifdSerialNumber = ifdSerialNumber
        self.applications = applications
        self.limits = limits
        self.kernel3 = kernel3
        self.kernel2 = kernel2
        self.caPublicKeys = try CAPublicKeyEntry.entries(caPublicKeys)
    }

    /// An accepted application: AID, kernel and the terminal's application version.
    public struct Application: Sendable, Hashable, Codable {
        /// The AID (9F06) in hex, e.g. `A0000000031010`.
        public var aid: String
        /// The Book B kernel id: 3 Visa, 2 Mastercard.
        public var kernelID: UInt8
        /// Application Version Number (9F09), two bytes in hex.
        public var applicationVersion: String
        /// Whether a card ADF name that merely starts with the AID matches.
        public var allowsPartialMatch: Bool

        /// Creates an entry.
        public init(aid: [UInt8], kernelID: UInt8, applicationVersion: [UInt8], allowsPartialMatch: Bool = true) {
            self.aid = aid.hexString
            self.kernelID = kernelID
            self.applicationVersion = applicationVersion.hexString
            self.allowsPartialMatch = allowsPartialMatch
        }
    }

    /// One kernel's contactless limits in one currency, in minor units; nil is not checked.
    public struct Limits: Sendable, Hashable, Codable {
        /// The Book B kernel id.
        public var kernelID: UInt8
        /// ISO 4217 alphabetic code.
        public var currency: String
        /// Reader Contactless Transaction Limit.
        public var contactlessTransactionLimit: Int?
        /// Reader CVM Required Limit.
        public var cvmRequiredLimit: Int?
        /// Reader Contactless Floor Limit.
        public var floorLimit: Int?

        /// Creates limits.
        public init(
            kernelID: UInt8, currency: Currency, contactlessTransactionLimit: Int?, cvmRequiredLimit: Int?,
            floorLimit: Int?
        ) {
            self.kernelID = kernelID
            self.currency = currency.alphabeticCode
            self.contactlessTransactionLimit = contactlessTransactionLimit
            self.cvmRequiredLimit = cvmRequiredLimit
            self.floorLimit = floorLimit
        }
    }

    /// Kernel 3 (Visa) settings.
    public struct Kernel3: Sendable, Hashable, Codable {
        /// The base Terminal Transaction Qualifiers (9F66), four bytes in hex.
        public var terminalTransactionQualifiers: String

        /// Creates settings.
        public init(terminalTransactionQualifiers: TerminalTransactionQualifiers) {
            self.terminalTransactionQualifiers = terminalTransactionQualifiers.bytes.hexString
        }
    }

    /// Kernel 2 (Mastercard) settings (Book C-2 DF81xx data), each byte string in hex.
    public struct Kernel2: Sendable, Hashable, Codable {
        /// Kernel Configuration (DF811B).
        public var kernelConfiguration: String
        /// CVM Capability – CVM Required (DF8118).
        public var cvmCapabilityCVMRequired: String
        /// CVM Capability – No CVM Required (DF8119).
        public var cvmCapabilityNoCVMRequired: String
        /// Mag-stripe CVM Capability – CVM Required (DF811E).
        public var magStripeCVMCapabilityCVMRequired: String
        /// Mag-stripe CVM Capability – No CVM Required (DF812C).
        public var magStripeCVMCapabilityNoCVMRequired: String
        /// Terminal Action Code – Default (DF8120), five bytes.
        public var terminalActionCodeDefault: String
        /// Terminal Action Code – Denial (DF8121), five bytes.
        public var terminalActionCodeDenial: String
        /// Terminal Action Code – Online (DF8122), five bytes.
        public var terminalActionCodeOnline: String

        /// Creates settings: the five single bytes in the order above, then the three action codes.
        public init(
            kernelConfiguration: UInt8, cvmCapabilities: (required: UInt8, notRequired: UInt8),
            magStripeCVMCapabilities: (required: UInt8, notRequired: UInt8),
            actionCodes: (default: [UInt8], denial: [UInt8], online: [UInt8])
        ) {
            self.kernelConfiguration = [kernelConfiguration].hexString
            cvmCapabilityCVMRequired = [cvmCapabilities.required].hexString
            cvmCapabilityNoCVMRequired = [cvmCapabilities.notRequired].hexString
            magStripeCVMCapabilityCVMRequired = [magStripeCVMCapabilities.required].hexString
            magStripeCVMCapabilityNoCVMRequired = [magStripeCVMCapabilities.notRequired].hexString
            terminalActionCodeDefault = actionCodes.default.hexString
            terminalActionCodeDenial = actionCodes.denial.hexString
            terminalActionCodeOnline = actionCodes.online.hexString
        }
    }

    /// A CA public key in `CAPublicKeyList`'s JSON format.
    public struct CAPublicKeyEntry: Sendable, Hashable, Codable {
        /// The RID, five bytes in hex.
        public var rid: String
        /// The key index, one byte in hex.
        public var index: String
        /// The modulus in hex.
        public var modulus: String
        /// The exponent in hex.
        public var exponent: String
        /// SHA-1(RID | index | modulus | exponent) in hex.
        public var checksum: String?
        /// `YYYY-MM-DD`.
        public var expiry: String?

        /// The entries of `list`, through its own JSON form so the format has one definition.
        static func entries(_ list: CAPublicKeyList) throws -> [CAPublicKeyEntry] {
            var bare = list
            bare.provenance = nil
            return try JSONDecoder().decode([CAPublicKeyEntry].self, from: bare.jsonData())
        }
    }

    /// The CA public keys as the EMV core's list (checksums checked).
    /// - Throws: the list's `ODAError` for a malformed or inconsistent key.
    public func caPublicKeyList() throws -> CAPublicKeyList {
        try CAPublicKeyList(jsonData: JSONEncoder().encode(caPublicKeys))
    }
}
