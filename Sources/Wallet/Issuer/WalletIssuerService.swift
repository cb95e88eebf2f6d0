public import CardEmulator

/// The wallet's connection to its issuer's token service: eligibility, digitization with Terms and Conditions and a
/// one-time code, payment-key replenishment and the token's lifecycle.
///
/// The wallet SDK never links the issuer host: an app implements this over its issuer's API. `TestMode`
/// has the implementation over the in-process issuer host (`IssuerWalletService`) that tests and `tap` use.
///
/// ## Payment keys
/// Each key is an EMV common session key (EMV Book 2, A1.3: R = ATC ‖ 00…00) derived for one ATC from the token's
/// ICC master key, which the issuer derives from its token range's IMK-AC and the DPAN (option A, PSN as given). The
/// wallet keeps only these session keys, so an application cryptogram verifies at the issuer under the IMK and the
/// wallet never holds a master key.
public protocol WalletIssuerService: Sendable {
    /// Asks whether the funding card can be digitized for this wallet and device; returns the Terms and Conditions.
    func checkEligibility(_ instrument: InstrumentData, walletID: String, deviceID: String) async throws(WalletError)
        -> EligibilityAcceptableData

    /// Starts the digitization after the cardholder accepted the Terms and Conditions: the issuer sends a one-time
    /// code to the cardholder's registered contact.
    func digitize(eligibilityID: String, acceptedTermsID: String) async throws(WalletError)
        -> PendingIdentityVerification

    /// Completes the digitization with the one-time code: the token, its DPAN and its first payment keys.
    func verifyIdentity(digitizationID: String, code: String) async throws(WalletError) -> TokenizedCard

    /// Up to `count` new payment keys for the token, with ATCs above every one it issued before.
    func replenish(tokenID: String, count: Int) async throws(WalletError) -> [LimitedUseKey]

    /// Suspends, resumes or deletes the token at the issuer.
    func setStatus(_ status: TokenStatus, tokenID: String) async throws(WalletError)
}
