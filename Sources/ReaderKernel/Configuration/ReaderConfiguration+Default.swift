public import EMV

extension ReaderConfiguration {
    /// A phone reader in Germany for the demo and tests: Visa on Kernel 3 and Mastercard on Kernel 2, limits in EUR
    /// and USD (contactless transaction limit 500.00, CVM required limit 50.00, floor limit 0: every transaction
    /// goes online), and the CA public keys given.
    ///
    /// - Parameter caPublicKeys: the keys to authenticate cards with, e.g. the test CA's of the card profiles.
    public static func `default`(caPublicKeys: CAPublicKeyList) -> ReaderConfiguration {
        let limits = [Currency.eur, .usd].flatMap { currency in
            [2, 3].map { kernelID in
                ReaderLimits(
                    kernelID: UInt8(kernelID), currency: currency, contactlessTransactionLimit: 50_000,
                    cvmRequiredLimit: 5_000, floorLimit: 0)
            }
        }
        return ReaderConfiguration(
            terminalCountry: .deu,
            terminalType: 0x22,
            // Byte 1: manual key entry, IC with contacts off (contactless only); byte 2: online PIN, signature,
            // no CVM; byte 3: CDA, DDA, SDA.
            terminalCapabilities: [0x00, 0x68, 0xC8],
            additionalTerminalCapabilities: [0x60, 0x00, 0x00, 0xA0, 0x01],
            merchantCategoryCode: "5411",
            merchantNameAndLocation: "Contactless Demo Store, Berlin",
            merchantIdentifier: "DEMO00000000001",
            terminalIdentifier: "TAP00001",
            ifdSerialNumber: "PHONE001",
            applications: [.visa, .mastercard],
            limits: limits,
            kernel3: .phoneReader,
            kernel2: .phoneReader,
            caPublicKeys: caPublicKeys)
    }
}
