public import EMV
public import GatewayAPI

/// What the gateway configures every prepared reader with: a phone reader accepting Visa (A0000000031010, Kernel 3)
/// and Mastercard (A0000000041010, Kernel 2), contactless limits per currency, and the CA public keys for offline
/// data authentication; the merchant's and device's identifiers are filled in per prepare.
///
/// The CA keys are given, not built in: the gateway does not ship a payment system's keys. `tap serve` and the
/// tests give the shipped test CA's keys (`CardProfile.testCAPublicKeys`); a deployment gives its acquirer's list.
public struct ReaderConfigurationPolicy: Sendable {
    /// One currency's limits in minor units, the same for both kernels.
    public struct CurrencyLimits: Sendable, Hashable {
        /// Above it the transaction goes online (0: always).
        public var floorLimit: Int
        /// At or above it the cardholder must be verified.
        public var cvmRequiredLimit: Int
        /// At or above it the card can't be used contactless.
        public var contactlessTransactionLimit: Int

        /// Creates limits.
        public init(floorLimit: Int, cvmRequiredLimit: Int, contactlessTransactionLimit: Int) {
            self.floorLimit = floorLimit
            self.cvmRequiredLimit = cvmRequiredLimit
            self.contactlessTransactionLimit = contactlessTransactionLimit
        }
    }

    /// The default limits: floor 0 (every payment goes online), CVM limit 50.00 (GBP 100.00), transaction limit
    /// 500.00, in EUR, USD and GBP.
    public static let defaultLimits: [Currency: CurrencyLimits] = [
        .eur: CurrencyLimits(floorLimit: 0, cvmRequiredLimit: 5_000, contactlessTransactionLimit: 50_000),
        .usd: CurrencyLimits(floorLimit: 0, cvmRequiredLimit: 5_000, contactlessTransactionLimit: 50_000),
        .gbp: CurrencyLimits(floorLimit: 0, cvmRequiredLimit: 10_000, contactlessTransactionLimit: 50_000),
    ]

    /// The CA public keys readers authenticate cards with.
    public var caPublicKeys: CAPublicKeyList
    /// Limits per currency.
    public var limits: [Currency: CurrencyLimits]

    /// Creates a policy.
    public init(caPublicKeys: CAPublicKeyList, limits: [Currency: CurrencyLimits] = defaultLimits) {
        self.caPublicKeys = caPublicKeys
        self.limits = limits
    }

    /// The configuration of `merchant`'s reader on the device with `terminalId`.
    /// - Throws: the CA key list's error if it can't be encoded (never for a list that loaded).
    public func configuration(for merchant: Merchant, terminalId: String) throws -> ReaderConfigurationPayload {
        let kernelLimits = limits.sorted { $0.key.alphabeticCode < $1.key.alphabeticCode }.flatMap { currency, limit in
            [UInt8(3), 2].map { kernelID in
                ReaderConfigurationPayload.Limits(
                    kernelID: kernelID, currency: currency,
                    contactlessTransactionLimit: limit.contactlessTransactionLimit,
                    cvmRequiredLimit: limit.cvmRequiredLimit, floorLimit: limit.floorLimit)
            }
        }
        return try ReaderConfigurationPayload(
            terminalCountry: merchant.country,
            // Attended, online with offline capability, merchant operated.
            terminalType: 0x22,
            // Contactless only; online PIN, signature and no CVM; SDA, DDA and CDA.
            terminalCapabilities: [0x00, 0x68, 0xC8],
            additionalTerminalCapabilities: [0x60, 0x00, 0x00, 0xA0, 0x01],
            merchantCategoryCode: merchant.categoryCode,
            merchantNameAndLocation: String("\(merchant.name), \(merchant.country.alpha2)".prefix(40)),
            merchantIdentifier: merchant.cardAcceptorId,
            terminalIdentifier: terminalId,
            ifdSerialNumber: terminalId,
            applications: [
                .init(aid: [0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10], kernelID: 3, applicationVersion: [0x00, 0x8C]),
                .init(aid: [0xA0, 0x00, 0x00, 0x00, 0x04, 0x10, 0x10], kernelID: 2, applicationVersion: [0x00, 0x02]),
            ],
            limits: kernelLimits,
            // qVSDC, online PIN, signature, ODA for online authorisations, consumer device CVM.
            kernel3: .init(terminalTransactionQualifiers: [
                .emvModeSupported, .onlinePINSupported, .signatureSupported, .odaForOnlineAuthorizationsSupported,
                .consumerDeviceCVMSupported,
            ]),
            // EMV and mag-stripe mode with on-device CVM; online PIN and signature over the CVM limit, no CVM under
            // it; Mastercard's recommended action codes for an online-capable terminal.
            kernel2: .init(
                kernelConfiguration: 0x20, cvmCapabilities: (required: 0x60, notRequired: 0x08),
                magStripeCVMCapabilities: (required: 0x10, notRequired: 0x00),
                actionCodes: (
                    default: [0x84, 0x00, 0x00, 0x00, 0x0C], denial: [0x00, 0x00, 0x00, 0x00, 0x00],
                    online: [0x84, 0x00, 0x00, 0x80, 0x0C]
                )),
            caPublicKeys: caPublicKeys)
    }
}
