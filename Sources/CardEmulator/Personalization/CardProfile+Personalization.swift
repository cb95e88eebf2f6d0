public import EMV
public import Foundation

extension CardProfile {
    /// The cryptogram versions a card can run on precomputed keys: those whose AC session key comes from the ATC
    /// alone (EMV common session key derivation).
    public static let supportedCryptogramVersions: [String: CryptogramVersion] = [
        "visa18": .visa18, "mastercard20": .mastercard20, "mastercard21": .mastercard21,
    ]

    /// The profile's cryptogram version.
    /// - Throws: ``CardEmulatorError/unsupportedCryptogramVersion`` for a name not in
    ///   ``supportedCryptogramVersions``.
    public func resolvedCryptogramVersion() throws(CardEmulatorError) -> CryptogramVersion {
        guard let version = Self.supportedCryptogramVersions[cryptogramVersion] else {
            throw CardEmulatorError(
                .unsupportedCryptogramVersion,
                "cryptogram version \"\(cryptogramVersion)\" is not one of "
                    + Self.supportedCryptogramVersions.keys.sorted().joined(separator: ", "))
        }
        return version
    }

    /// Issuer side: the card's ICC master keys, derived from the issuer master keys with the version's option.
    /// - Throws: ``CardEmulatorError/keyDerivationFailed`` or ``CardEmulatorError/unsupportedCryptogramVersion``.
    public func iccMasterKeys() throws(CardEmulatorError) -> ICCMasterKeys {
        let version = try resolvedCryptogramVersion()
        do {
            return try ICCMasterKeys(
                issuerMasterKeyAC: issuerMasterKeys.ac.bytes, issuerMasterKeySMI: issuerMasterKeys.smi.bytes,
                issuerMasterKeySMC: issuerMasterKeys.smc.bytes, pan: pan, psn: panSequenceNumber,
                option: version.masterKeyDerivation)
        } catch {
            throw CardEmulatorError(.keyDerivationFailed, "ICC master key derivation failed: \(error.code)")
        }
    }

    /// Issuer side: limited-use keys for the given ATCs (personalisation and replenishment), each valid until
    /// `validUntil`.
    /// - Throws: ``CardEmulatorError/keyDerivationFailed`` or ``CardEmulatorError/unsupportedCryptogramVersion``.
    public func limitedUseKeys(atcs: ClosedRange<UInt16>, validUntil: Date) throws(CardEmulatorError) -> [LimitedUseKey]
    {
        let masterKeys = try iccMasterKeys()
        var keys: [LimitedUseKey] = []
        keys.reserveCapacity(atcs.count)
        for atc in atcs {
            let atcBytes = [UInt8(atc >> 8), UInt8(truncatingIfNeeded: atc)]
            do {
                let key = try SessionKey.common(iccMasterKey: masterKeys.ac, atc: atcBytes)
                keys.append(LimitedUseKey(atc: atc, sessionKey: key, validUntil: validUntil))
            } catch {
                throw CardEmulatorError(.keyDerivationFailed, "session key derivation failed: \(error.code)")
            }
        }
        return keys
    }

    /// Personalises a card: derives the ICC master key and precomputes the limited-use AC session keys (the card
    /// keeps those only), assembles FCIs and records, and certifies the ICC key over the static data when the
    /// profile carries no ICC certificate.
    ///
    /// - Parameters:
    ///   - date: personalisation time; keys are valid for the policy's seconds from it.
    ///   - environment: the card's clock and randomness.
    /// - Throws: ``CardEmulatorError`` naming the field at fault.
    public func personalize(
        on date: Date = Date(), environment: CardEnvironment = .system
    ) throws(CardEmulatorError) -> EmulatedCard {
        let image = try makeImage()
        guard limitedUseKeys.count >= 0, Int(startingATC) + limitedUseKeys.count <= Int(UInt16.max) + 1 else {
            throw CardEmulatorError(.invalidProfile, "limited-use key count runs past ATC 65535")
        }
        let keys: [LimitedUseKey]
        if limitedUseKeys.count == 0 {
            keys = []
        } else {
            let last = UInt16(Int(startingATC) + limitedUseKeys.count - 1)
            keys = try limitedUseKeys(
                atcs: startingATC...last, validUntil: date.addingTimeInterval(image.keyValidity))
        }
        return EmulatedCard(image: image, keys: keys, environment: environment)
    }

    /// The static data to be authenticated (EMV Book 3, 10.3) that the ICC certificate covers: the ODA records'
    /// contents and, with ODA, the AIP.
    /// - Throws: ``CardEmulatorError`` when the profile does not make records.
    public func staticDataToBeAuthenticated() throws(CardEmulatorError) -> [UInt8] {
        var objects = try dataObjects()
        // The ICC certificate itself cannot be covered; stand-ins keep the layout buildable.
        objects[.iccPublicKeyCertificate] = objects[.iccPublicKeyCertificate] ?? []
        let (records, afl) = try assembleRecords(objects)
        return try staticData(records: records, afl: afl)
    }

    // MARK: - Image

    func makeImage() throws(CardEmulatorError) -> CardImage {
        let version = try resolvedCryptogramVersion()
        guard !applications.isEmpty else { throw CardEmulatorError(.missingData, "the profile lists no application") }
        guard applicationInterchangeProfile.bytes.count == 2,
            let aip = try? ApplicationInterchangeProfile(bytes: applicationInterchangeProfile.bytes)
        else {
            throw CardEmulatorError(.invalidProfile, "applicationInterchangeProfile must be 2 bytes")
        }
        var objects = try dataObjects()
        if let oda = offlineDataAuthentication, oda.iccCertificate == nil {
            objects[.iccPublicKeyCertificate] = []
            let (records, afl) = try assembleRecords(objects)
            let certificate = try certifyICCKey(oda, staticData: try staticData(records: records, afl: afl))
            objects[.iccPublicKeyCertificate] = certificate.certificate
            if !certificate.remainder.isEmpty { objects[.iccPublicKeyRemainder] = certificate.remainder }
        }
        let (records, afl) = try assembleRecords(objects)
        try checkICCCertificate(objects, records: records, afl: afl)
        let pdol = try dataObjectList(pdol, "pdol")
        let apps = try applications.map { application throws(CardEmulatorError) in
            CardImage.Application(
                aid: application.aid.bytes, label: application.label, priority: application.priority,
                kernelIdentifier: application.kernelIdentifier.bytes,
                fci: try applicationFCI(application))
        }
        return CardImage(
            scheme: scheme,
            applications: apps,
            ppseFCI: try directoryFCI(name: CommandAPDU.proximityPaymentSystemEnvironment, contactless: true),
            pseFCI: try directoryFCI(name: CommandAPDU.paymentSystemEnvironment, contactless: false),
            pseRecords: [try pseRecord()],
            records: records,
            applicationInterchangeProfile: aip,
            applicationFileLocator: afl,
            pdol: pdol,
            cdol1: try dataObjectList(cdol1, "cdol1"),
            cdol2: try dataObjectList(cdol2, "cdol2"),
            cryptogramVersion: version,
            derivationKeyIndex: derivationKeyIndex,
            track2EquivalentData: try track2().bytes,
            panSequenceNumber: try panSequenceNumberBytes(),
            issuerCountryCode: issuerCountryCode.bytes,
            iccPrivateKey: offlineDataAuthentication?.iccPrivateKey,
            cardAuthenticationRelatedData: offlineDataAuthentication?.cardAuthenticationRelatedData?.bytes,
            cardTransactionQualifiers: try cardTransactionQualifiers.map { value throws(CardEmulatorError) in
                guard let ctq = try? CardTransactionQualifiers(bytes: value.bytes) else {
                    throw CardEmulatorError(.invalidProfile, "cardTransactionQualifiers must be 2 bytes")
                }
                return ctq
            } ?? [],
            formFactorIndicator: formFactorIndicator?.bytes,
            issuerActionCodeDenial: try actionCode(issuerActionCodes?.denial, "denial"),
            issuerActionCodeOnline: try actionCode(issuerActionCodes?.online, "online"),
            offlineLimit: offlineLimit,
            consumerDeviceCVM: consumerDeviceCVM,
            offlinePINDigits: try offlinePINDigits(),
            pinTryLimit: pinTryLimit,
            logFormat: logFormat?.bytes,
            magStripe: try magStripeKeys(),
            acceptsEmptyPDOLData: acceptsEmptyPDOLData,
            keyValidity: TimeInterval(limitedUseKeys.validitySeconds)
        )
    }

    /// A carried ICC certificate must cover the records as they are now: with the issuer key at hand, recover it and
    /// check it, so an edited profile fails here rather than at every terminal.
    private func checkICCCertificate(_ objects: [Tag: [UInt8]], records: [UInt16: [UInt8]], afl: [UInt8])
        throws(CardEmulatorError)
    {
        guard let oda = offlineDataAuthentication, let issuerKey = oda.issuerPrivateKey?.publicKey,
            let certificate = objects[.iccPublicKeyCertificate]
        else { return }
        let staticData = try staticData(records: records, afl: afl)
        do {
            let key = try ICCPublicKeyCertificate(recovering: certificate, with: issuerKey).verify(
                remainder: objects[.iccPublicKeyRemainder] ?? [], exponent: oda.iccPrivateKey.publicKey.exponent,
                staticData: staticData, pan: try accountPAN().bcd, on: .distantPast)
            guard key == oda.iccPrivateKey.publicKey else {
                throw CardEmulatorError(.offlineDataAuthenticationFailed, "the ICC certificate is for another key")
            }
        } catch let error as CardEmulatorError {
            throw error
        } catch {
            throw CardEmulatorError(
                .offlineDataAuthenticationFailed,
                "the ICC certificate does not cover the records (\(error)); run certified() after editing")
        }
    }

    private func dataObjectList(_ value: HexBytes?, _ field: String) throws(CardEmulatorError) -> DataObjectList? {
        guard let value else { return nil }
        guard let list = try? DataObjectList(value.bytes) else {
            throw CardEmulatorError(.invalidProfile, "\(field) is not a data object list")
        }
        return list
    }

    private func actionCode(_ value: HexBytes?, _ name: String) throws(CardEmulatorError) -> TerminalVerificationResults {
        guard let value else { return [] }
        guard let code = try? TerminalVerificationResults(bytes: value.bytes) else {
            throw CardEmulatorError(.invalidProfile, "issuer action code \(name) must be 5 bytes")
        }
        return code
    }

    private func offlinePINDigits() throws(CardEmulatorError) -> [UInt8]? {
        guard let offlinePIN else { return nil }
        let digits = offlinePIN.utf8.map { $0 &- 0x30 }
        guard (4...12).contains(digits.count), digits.allSatisfy({ $0 <= 9 }) else {
            throw CardEmulatorError(.invalidProfile, "offlinePIN must be 4 to 12 digits")
        }
        return digits
    }

    private func magStripeKeys() throws(CardEmulatorError) -> CardImage.MagStripeKeys? {
        guard let magStripe else { return nil }
        guard let imk = issuerMasterKeys.cvc3 else {
            throw CardEmulatorError(.missingData, "mag-stripe mode needs issuerMasterKeys.cvc3")
        }
        guard let udol = try? DataObjectList(magStripe.udol.bytes) else {
            throw CardEmulatorError(.invalidProfile, "magStripe.udol is not a data object list")
        }
        do {
            let key = try KeyDerivation.iccMasterKey(
                option: .a, issuerMasterKey: imk.bytes, pan: pan, psn: panSequenceNumber)
            return CardImage.MagStripeKeys(
                iccKey: key,
                ivTrack1: try CVC3.initializationVector(iccKey: key, trackTemplate: Array(magStripe.track1.utf8)),
                ivTrack2: try CVC3.initializationVector(iccKey: key, trackTemplate: magStripe.track2.bytes),
                udol: udol)
        } catch {
            throw CardEmulatorError(.keyDerivationFailed, "CVC3 key derivation failed: \(error.code)")
        }
    }
}
