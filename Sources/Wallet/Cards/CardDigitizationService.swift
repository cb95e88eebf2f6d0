import CardEmulator
import EMV
import Foundation

/// Digitizes a funding card into this wallet (Thales: `CardDigitizationService`): eligibility with the issuer,
/// Terms and Conditions acceptance, the identity check with a one-time code, then a digital card.
///
/// The digital card is the scheme's card profile template personalised for this wallet with the issuer's device
/// account number (DPAN) and payment keys. The wallet holds no issuer master key, ICC master key or issuer private
/// key: the payment keys are session keys for one ATC each. The templates' offline data authentication needs the
/// issuer's private key to certify the card's key over the DPAN, so wallet cards carry no ODA (AIP without SDA, DDA
/// or CDA, no ODA records): they are online-only tokens, as issuer-hosted wallet tokens are.
public actor CardDigitizationService {
    private let configuration: WalletConfiguration
    private let store: WalletStore

    init(configuration: WalletConfiguration, store: WalletStore) {
        self.configuration = configuration
        self.store = store
    }

    /// Asks the issuer whether the card can be digitized; returns the Terms and Conditions to accept.
    /// - Throws: ``WalletError/Code/notEligible``, ``WalletError/Code/issuerError``.
    public func checkEligibility(_ eligibilityData: EligibilityData = EligibilityData(), instrumentData: InstrumentData)
        async throws(WalletError) -> EligibilityAcceptableData
    {
        try await configuration.issuer.checkEligibility(
            instrumentData, walletID: configuration.walletID, deviceID: configuration.deviceID)
    }

    /// Starts the digitization with the accepted Terms and Conditions; the issuer sends the one-time code.
    /// - Throws: ``WalletError/Code/eligibilityExpired``, ``WalletError/Code/issuerError``.
    public func digitizeCard(
        withTNC acceptance: TermsAndConditions.Acceptance, eligibility: EligibilityAcceptableData
    ) async throws(WalletError) -> PendingIdentityVerification {
        guard eligibility.termsAndConditions == acceptance.termsAndConditions else {
            throw WalletError(.eligibilityExpired, "the accepted Terms and Conditions are not this eligibility's")
        }
        guard eligibility.validUntil >= configuration.clock() else {
            throw WalletError(.eligibilityExpired, "the eligibility answer has expired; check eligibility again")
        }
        return try await configuration.issuer.digitize(
            eligibilityID: eligibility.eligibilityID, acceptedTermsID: acceptance.termsAndConditions.id)
    }

    /// Completes the digitization with the cardholder's one-time code: the card is personalised, its keys sealed in
    /// the wallet's store, and it becomes the default card when the wallet has none.
    /// - Throws: ``WalletError/Code/identityVerificationFailed``, ``WalletError/Code/issuerError``,
    ///   ``WalletError/Code/cardNotSupported`` when the token cannot be personalised,
    ///   ``WalletError/Code/keychainError``.
    public func verifyIdentity(_ pending: PendingIdentityVerification, code: String) async throws(WalletError)
        -> DigitalCard
    {
        let token = try await configuration.issuer.verifyIdentity(digitizationID: pending.digitizationID, code: code)
        let now = configuration.clock()
        let ordinal = (try await store.cards().map(\.ordinal).max() ?? 0) + 1
        let record = DigitalCardRecord(
            digitalCardID: UUID().uuidString, tokenID: token.tokenID, dpan: token.dpan.digits,
            maskedDPAN: token.dpan.masked, expiry: token.expiry.description,
            panSequenceNumber: token.panSequenceNumber, scheme: token.scheme, fundingLastFour: token.fundingLastFour,
            state: .active, keys: token.keys.map(DigitalCardRecord.StoredKey.init), lastATC: nil,
            walletTransactionData: nil, digitizedAt: now, ordinal: ordinal)
        // Personalise once now, so a token the wallet cannot emulate fails here rather than at the till.
        do {
            _ = try record.makeCard(
                environment: CardEnvironment(now: configuration.clock, randomBytes: configuration.randomBytes))
        } catch {
            throw WalletError(.cardNotSupported, "the token cannot be personalised: \(error.code)")
        }
        try await store.save(record)
        let isDefault: Bool
        if try await store.defaultCardID() == nil {
            try await store.setDefaultCardID(record.digitalCardID)
            isDefault = true
        } else {
            isDefault = false
        }
        return DigitalCard(record, isDefault: isDefault, at: now, threshold: configuration.replenishmentThreshold)
    }
}
