public import CardEmulator
import EMV
public import Issuer
public import Wallet

/// The wallet's issuer connection over the issuer host's ``Issuer/DigitizationService`` in the same process: what
/// an app's backend call would reach, without the network. Tests and `tap wallet` use it.
///
/// Issuer errors become the wallet's: an ineligible card `notEligible`, a lapsed answer or unaccepted terms
/// `eligibilityExpired`, a wrong, expired or exhausted code `identityVerificationFailed`, a token that is not
/// active `cardNotActive`, anything else `issuerError` — with the issuer's code in the message, never card data.
public struct IssuerWalletService: WalletIssuerService {
    /// The issuer's digitization service.
    public let service: DigitizationService

    /// A connection to `service`.
    public init(service: DigitizationService) { self.service = service }

    /// The issuer's eligibility check.
    public func checkEligibility(_ instrument: InstrumentData, walletID: String, deviceID: String)
        async throws(WalletError) -> EligibilityAcceptableData
    {
        do {
            let answer = try await service.checkEligibility(
                EligibilityRequest(
                    fundingPAN: instrument.fundingPAN, expiry: instrument.expiry, walletID: walletID, deviceID: deviceID
                ))
            return EligibilityAcceptableData(
                eligibilityID: answer.eligibilityID,
                termsAndConditions: Wallet.TermsAndConditions(
                    id: answer.termsAndConditions.id, text: answer.termsAndConditions.text),
                scheme: try Self.scheme(answer.scheme), validUntil: answer.validUntil)
        } catch {
            throw Self.walletError(error)
        }
    }

    /// The issuer's digitization: it sends the one-time code.
    public func digitize(eligibilityID: String, acceptedTermsID: String) async throws(WalletError)
        -> PendingIdentityVerification
    {
        do {
            let pending = try await service.digitize(eligibilityID: eligibilityID, acceptedTermsID: acceptedTermsID)
            return PendingIdentityVerification(
                digitizationID: pending.digitizationID, maskedDestination: pending.maskedDestination)
        } catch {
            throw Self.walletError(error)
        }
    }

    /// The issuer's identity check: the token, its DPAN and first keys.
    public func verifyIdentity(digitizationID: String, code: String) async throws(WalletError) -> TokenizedCard {
        do {
            let card = try await service.verifyIdentity(digitizationID: digitizationID, code: code)
            return TokenizedCard(
                tokenID: card.tokenID, dpan: card.dpan, expiry: card.expiry,
                panSequenceNumber: card.panSequenceNumber, scheme: try Self.scheme(card.scheme),
                fundingLastFour: card.fundingLastFour, keys: card.paymentKeys.map(Self.key))
        } catch {
            throw Self.walletError(error)
        }
    }

    /// The issuer's replenishment.
    public func replenish(tokenID: String, count: Int) async throws(WalletError) -> [LimitedUseKey] {
        do {
            return try await service.replenish(tokenID: tokenID, count: count).map(Self.key)
        } catch {
            throw Self.walletError(error)
        }
    }

    /// The token's state at the issuer.
    public func setStatus(_ status: TokenStatus, tokenID: String) async throws(WalletError) {
        let issuerStatus: DeviceToken.Status =
            switch status {
            case .active: .active
            case .suspended: .suspended
            case .deleted: .deleted
            }
        do {
            try await service.setStatus(issuerStatus, tokenID: tokenID)
        } catch {
            throw Self.walletError(error)
        }
    }

    // MARK: - Mapping

    private static func key(_ key: PaymentKey) -> LimitedUseKey {
        LimitedUseKey(atc: key.atc, sessionKey: key.sessionKey, validUntil: key.validUntil)
    }

    private static func scheme(_ scheme: PaymentScheme) throws(WalletError) -> CardProfile.Scheme {
        guard let mapped = CardProfile.Scheme(rawValue: scheme.rawValue) else {
            throw WalletError(code: .cardNotSupported, message: "the wallet has no card profile for \(scheme)")
        }
        return mapped
    }

    private static func walletError(_ error: any Error) -> WalletError {
        if let error = error as? WalletError { return error }
        guard let error = error as? IssuerError else {
            return WalletError(code: .issuerError, message: "the issuer failed")
        }
        let code: WalletError.Code =
            switch error.code {
            case .accountNotEligible, .expiryMismatch, .noTokenRange, .invalidPAN: .notEligible
            case .unknownEligibility, .eligibilityExpired, .termsNotAccepted: .eligibilityExpired
            case .unknownDigitization, .digitizationVoid, .incorrectCode, .codeTriesExceeded, .codeExpired:
                .identityVerificationFailed
            case .tokenNotActive, .unknownToken: .cardNotActive
            default: .issuerError
            }
        return WalletError(code: code, message: "the issuer answered \(error.code)")
    }
}
