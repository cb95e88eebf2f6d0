public import EMV

extension CardProfile {
    /// One application the card offers (a directory entry of the PPSE and PSE).
    public struct Application: Codable, Sendable, Hashable {
        /// The AID (tags 4F, 84).
        public var aid: HexBytes
        /// Application label (tag 50), ASCII.
        public var label: String
        /// Application priority indicator (tag 87).
        public var priority: UInt8
        /// Kernel identifier (tag 9F2A) in the PPSE entry, e.g. `03` for Visa, `02` for Mastercard.
        public var kernelIdentifier: HexBytes

        /// Creates an application entry.
        public init(aid: HexBytes, label: String, priority: UInt8, kernelIdentifier: HexBytes) {
            self.aid = aid
            self.label = label
            self.priority = priority
            self.kernelIdentifier = kernelIdentifier
        }
    }

    /// One record of an application elementary file: where it lives and which data objects it holds.
    public struct Record: Codable, Sendable, Hashable {
        /// Short file identifier, 1...30.
        public var sfi: UInt8
        /// Record number, 1...255.
        public var number: UInt8
        /// Whether the record takes part in offline data authentication (the AFL's count covers it); such records
        /// come first in their file.
        public var offlineDataAuthentication: Bool
        /// The tags of the data objects in the record, in order, as hex (`"5A"`, `"9F46"`); their values come from
        /// the profile's fields and ``CardProfile/additionalData``.
        public var tags: [String]

        /// Creates a record layout.
        public init(sfi: UInt8, number: UInt8, offlineDataAuthentication: Bool = false, tags: [String]) {
            self.sfi = sfi
            self.number = number
            self.offlineDataAuthentication = offlineDataAuthentication
            self.tags = tags
        }
    }

    /// The issuer master keys the card's keys are derived from (double-length TDES keys).
    public struct IssuerMasterKeys: Codable, Sendable, CustomStringConvertible {
        /// Application cryptogram master key (IMK-AC).
        public var ac: HexBytes
        /// Secure messaging integrity master key (IMK-SMI).
        public var smi: HexBytes
        /// Secure messaging confidentiality master key (IMK-SMC).
        public var smc: HexBytes
        /// Mastercard mag-stripe CVC3 master key (IMK-CVC3); nil without mag-stripe mode.
        public var cvc3: HexBytes?

        /// Creates the key set.
        public init(ac: HexBytes, smi: HexBytes, smc: HexBytes, cvc3: HexBytes? = nil) {
            self.ac = ac
            self.smi = smi
            self.smc = smc
            self.cvc3 = cvc3
        }

        /// Never the keys.
        public var description: String { "IssuerMasterKeys(<redacted>)" }
    }

    /// How many limited-use keys personalisation makes and how long each stays usable.
    public struct LimitedUseKeyPolicy: Codable, Sendable, Hashable {
        /// The number of keys, for ATCs `startingATC ..< startingATC + count`.
        public var count: Int
        /// Seconds from personalisation (or replenishment) after which a key is skipped.
        public var validitySeconds: Int

        /// Creates a policy.
        public init(count: Int, validitySeconds: Int) {
            self.count = count
            self.validitySeconds = validitySeconds
        }
    }

    /// Consumer device CVM: the wallet verifies the cardholder on the phone.
    public struct ConsumerDeviceCVM: Codable, Sendable, Hashable {
        /// Whether the card signals and honours CDCVM.
        public var supported: Bool
        /// The card's own CVM required limit in minor units: above it the card requires CDCVM whatever the
        /// terminal says; nil leaves it to the terminal.
        public var cvmRequiredLimit: Int?

        /// Creates the setting.
        public init(supported: Bool, cvmRequiredLimit: Int? = nil) {
            self.supported = supported
            self.cvmRequiredLimit = cvmRequiredLimit
        }
    }

    /// Issuer action codes: denial, online and default (5 bytes each, TVR layout).
    public struct IssuerActionCodes: Codable, Sendable, Hashable {
        /// IAC-Default (tag 9F0D).
        public var `default`: HexBytes
        /// IAC-Denial (tag 9F0E).
        public var denial: HexBytes
        /// IAC-Online (tag 9F0F).
        public var online: HexBytes

        /// Creates the codes.
        public init(default: HexBytes, denial: HexBytes, online: HexBytes) {
            self.default = `default`
            self.denial = denial
            self.online = online
        }
    }

    /// Offline data authentication data: the issuer certificate from the test CA, the ICC key pair and certificate.
    public struct OfflineDataAuthentication: Codable, Sendable, CustomStringConvertible {
        /// The CA public key index (tag 8F) naming the test CA key.
        public var caPublicKeyIndex: UInt8
        /// Issuer public key certificate (tag 90), signed by the CA.
        public var issuerCertificate: HexBytes
        /// Issuer public key remainder (tag 92), empty when the modulus fits the certificate.
        public var issuerRemainder: HexBytes
        /// Issuer public key exponent (tag 9F32).
        public var issuerExponent: HexBytes
        /// The issuer's private key, which certifies the ICC key; needed only when ``iccCertificate`` is nil.
        public var issuerPrivateKey: RSAPrivateKey?
        /// The card's key pair (CRT), which signs fDDA and CDA.
        public var iccPrivateKey: RSAPrivateKey
        /// ICC public key certificate (tag 9F46); nil to have personalisation compute it over the static data.
        public var iccCertificate: HexBytes?
        /// ICC public key remainder (tag 9F48), with ``iccCertificate``.
        public var iccRemainder: HexBytes?
        /// Expiration of the ICC certificate as `MMYY` hex, e.g. `1230`.
        public var iccCertificateExpiration: HexBytes
        /// ICC certificate serial number, 3 bytes.
        public var iccCertificateSerialNumber: HexBytes
        /// Visa: the Card Authentication Related Data (tag 9F69) fDDA signs: fDDA version `01`, a 4-byte card
        /// unpredictable number and the CTQ.
        public var cardAuthenticationRelatedData: HexBytes?

        /// Creates the data.
        public init(
            caPublicKeyIndex: UInt8, issuerCertificate: HexBytes, issuerRemainder: HexBytes, issuerExponent: HexBytes,
            issuerPrivateKey: RSAPrivateKey?, iccPrivateKey: RSAPrivateKey, iccCertificate: HexBytes? = nil,
            iccRemainder: HexBytes? = nil, iccCertificateExpiration: HexBytes, iccCertificateSerialNumber: HexBytes,
            cardAuthenticationRelatedData: HexBytes? = nil
        ) {
            self.caPublicKeyIndex = caPublicKeyIndex
            self.issuerCertificate = issuerCertificate
            self.issuerRemainder = issuerRemainder
            self.issuerExponent = issuerExponent
            self.issuerPrivateKey = issuerPrivateKey
            self.iccPrivateKey = iccPrivateKey
            self.iccCertificate = iccCertificate
            self.iccRemainder = iccRemainder
            self.iccCertificateExpiration = iccCertificateExpiration
            self.iccCertificateSerialNumber = iccCertificateSerialNumber
            self.cardAuthenticationRelatedData = cardAuthenticationRelatedData
        }

        /// Never the keys.
        public var description: String { "OfflineDataAuthentication(CA index \([caPublicKeyIndex].hexString))" }
    }

    /// Mastercard mag-stripe mode data (EMV Contactless Book C-2, mag-stripe mode): track templates and the bit
    /// maps that tell the reader where to put CVC3, UN and ATC digits.
    public struct MagStripe: Codable, Sendable, Hashable {
        /// Track 1 data (tag 56) as ASCII, e.g. `B5413339000001513^TEST/CARD^2812201...`.
        public var track1: String
        /// Track 2 data (tag 9F6B) as packed digits with `D` separator and `F` filler.
        public var track2: HexBytes
        /// PCVC3(Track1) (tag 9F62), 6 bytes.
        public var pcvc3Track1: HexBytes
        /// PUNATC(Track1) (tag 9F63), 6 bytes.
        public var punatcTrack1: HexBytes
        /// NATC(Track1) (tag 9F64).
        public var natcTrack1: UInt8
        /// PCVC3(Track2) (tag 9F65), 2 bytes.
        public var pcvc3Track2: HexBytes
        /// PUNATC(Track2) (tag 9F66), 2 bytes.
        public var punatcTrack2: HexBytes
        /// NATC(Track2) (tag 9F67).
        public var natcTrack2: UInt8
        /// UDOL (tag 9F69), the data COMPUTE CRYPTOGRAPHIC CHECKSUM carries, e.g. `9F6A04`.
        public var udol: HexBytes
        /// Mag-stripe application version number (tag 9F6C), e.g. `0001`.
        public var applicationVersionNumber: HexBytes

        /// Creates the data.
        public init(
            track1: String, track2: HexBytes, pcvc3Track1: HexBytes, punatcTrack1: HexBytes, natcTrack1: UInt8,
            pcvc3Track2: HexBytes, punatcTrack2: HexBytes, natcTrack2: UInt8, udol: HexBytes,
            applicationVersionNumber: HexBytes
        ) {
            self.track1 = track1
            self.track2 = track2
            self.pcvc3Track1 = pcvc3Track1
            self.punatcTrack1 = punatcTrack1
            self.natcTrack1 = natcTrack1
            self.pcvc3Track2 = pcvc3Track2
            self.punatcTrack2 = punatcTrack2
            self.natcTrack2 = natcTrack2
            self.udol = udol
            self.applicationVersionNumber = applicationVersionNumber
        }
    }
}
