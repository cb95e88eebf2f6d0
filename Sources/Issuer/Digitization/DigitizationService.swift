import Crypto
import EMV
public import Foundation

/// The issuer's wallet-facing token service (what MDES or VTS are to a wallet): eligibility, digitization with
/// terms and an identity check by one-time code, limited-use payment keys and the token's life cycle.
///
/// ```swift
/// let service = DigitizationService(vault: vault, store: InMemoryDigitizationStore(), codes: outbox, clock: Date.init)
/// let eligibility = try await service.checkEligibility(EligibilityRequest(
///     fundingPAN: pan, expiry: expiry, walletID: "wallet", deviceID: "device-1"))
/// let pending = try await service.digitize(
///     eligibilityID: eligibility.eligibilityID, acceptedTermsID: eligibility.termsAndConditions.id)
/// let card = try await service.verifyIdentity(digitizationID: pending.digitizationID, code: codeFromSMS)
/// let more = try await service.replenish(tokenID: card.tokenID, count: 10)
/// ```
///
/// ## Flow and checks
/// 1. ``checkEligibility(_:)``: an active, unexpired card account with this PAN (else
///    ``IssuerError/Code/accountNotEligible``), the printed expiry the account's (``IssuerError/Code/expiryMismatch``),
///    a token range with master keys for its scheme (``IssuerError/Code/noTokenRange``). The answer holds for
///    ``eligibilityValidity``.
/// 2. ``digitize(eligibilityID:acceptedTermsID:)``: the answer known and not lapsed, the terms it offered accepted;
///    a six-digit code goes to the cardholder through the ``OneTimeCodeSender`` (stored only as a keyed hash).
/// 3. ``verifyIdentity(digitizationID:code:)``: the code within ``codeValidity`` (five minutes), at most
///    ``codeTries`` (three) tries, after which the digitization is void; then the vault provisions a DPAN and the
///    first ``keyBatchSize`` payment keys (ATC 1 up) are derived.
///
/// ## Payment keys
/// Each ``PaymentKey`` is the EMV common session key (R = ATC ‖ 00…00) of the DPAN's ICC master key: option A,
/// PSN `00`, under the token range's IMK-AC (``TokenVault/cryptogramKey(for:)``). An ARQC made with one verifies at
/// ``IssuerHost`` under the issuer master key. The store keeps the highest ATC issued per token, so
/// ``replenish(tokenID:count:)`` continues above it and an ATC is never issued twice.
public struct DigitizationService: Sendable {
    /// The token vault the DPANs come from.
    public let vault: TokenVault
    /// Eligibility answers, digitizations and tokens.
    public let store: any DigitizationStore
    /// Where one-time codes go.
    public let codes: any OneTimeCodeSender
    /// The service's clock: decides every validity.
    public let clock: @Sendable () -> Date
    /// The terms offered with every eligibility answer.
    public var termsAndConditions = TermsAndConditions.standard
    /// How long an eligibility answer holds: ten minutes.
    public var eligibilityValidity: TimeInterval = 600
    /// How long a one-time code holds: five minutes.
    public var codeValidity: TimeInterval = 300
    /// Wrong codes allowed before a digitization is void: three.
    public var codeTries = 3
    /// Payment keys given with a new digitized card: ten.
    public var keyBatchSize = 10
    /// How long a payment key stays valid from its issue: thirty days.
    public var keyValidity: TimeInterval = 30 * 24 * 3600
    /// The most keys one replenishment may ask for: one hundred.
    public var maximumKeysPerRequest = 100

    /// The PAN sequence number of every DPAN: the keys derive with it and the card personalises it.
    public static let panSequenceNumber = "00"

    /// Creates the service.
    public init(
        vault: TokenVault, store: any DigitizationStore, codes: any OneTimeCodeSender,
        clock: @escaping @Sendable () -> Date
    ) {
        self.vault = vault
        self.store = store
        self.codes = codes
        self.clock = clock
    }

    /// Checks whether a card may be digitized onto a device (see the type's documentation for the checks).
    /// - Throws: ``IssuerError/Code/accountNotEligible``, ``IssuerError/Code/expiryMismatch``,
    ///   ``IssuerError/Code/noTokenRange``, ``IssuerError/Code/invalidRequest`` (empty wallet or device id),
    ///   ``IssuerError/Code/storageFailed``.
    public func checkEligibility(_ request: EligibilityRequest) async throws(IssuerError) -> Eligibility {
        guard !request.walletID.isEmpty, !request.deviceID.isEmpty else {
            throw IssuerError(.invalidRequest, "the wallet and device ids must not be empty")
        }
        let now = clock()
        let keyedPAN = vault.keys.keyedHash(of: request.fundingPAN)
        guard let account = try await vault.accounts.account(keyedPAN), account.status == .active,
            let today = IssuerHost.utcDate(now), !account.expiry.isExpired(on: today)
        else { throw IssuerError(.accountNotEligible, "no active card account to digitize") }
        guard request.expiry == account.expiry else {
            throw IssuerError(.expiryMismatch, "the expiry date is not the card's")
        }
        guard let range = vault.range(forFunding: request.fundingPAN),
            let scheme = PaymentScheme(pan: range.tokenPrefix)
        else { throw IssuerError(.noTokenRange, "no token range with master keys covers the card's BIN") }
        let record = EligibilityRecord(
            id: Self.newID("elg"), fundingKeyedPAN: keyedPAN,
            encryptedFundingPAN: try vault.keys.encrypt(request.fundingPAN),
            fundingLastFour: request.fundingPAN.lastFour, walletID: request.walletID, deviceID: request.deviceID,
            scheme: scheme, termsID: termsAndConditions.id, validUntil: now.addingTimeInterval(eligibilityValidity))
        try await store.insertEligibility(record)
        return Eligibility(
            eligibilityID: record.id, termsAndConditions: termsAndConditions, scheme: scheme,
            validUntil: record.validUntil)
    }

    /// Starts a digitization: the cardholder accepted the terms; a one-time code goes out.
    /// - Throws: ``IssuerError/Code/unknownEligibility``, ``IssuerError/Code/eligibilityExpired``,
    ///   ``IssuerError/Code/termsNotAccepted``, ``IssuerError/Code/codeDeliveryFailed``,
    ///   ``IssuerError/Code/storageFailed``.
    public func digitize(eligibilityID: String, acceptedTermsID: String) async throws(IssuerError)
        -> PendingDigitization
    {
        guard let eligibility = try await store.eligibility(eligibilityID) else {
            throw IssuerError(.unknownEligibility, "no eligibility answer with this id")
        }
        let now = clock()
        guard now <= eligibility.validUntil else {
            throw IssuerError(.eligibilityExpired, "the eligibility answer lapsed; check eligibility again")
        }
        guard acceptedTermsID == eligibility.termsID else {
            throw IssuerError(.termsNotAccepted, "the accepted terms are not the ones offered")
        }
        let id = Self.newID("dgt")
        let code = Self.newCode()
        let record = DigitizationRecord(
            id: id, eligibilityID: eligibilityID, codeHash: codeHash(code, digitizationID: id),
            codeValidUntil: now.addingTimeInterval(codeValidity), triesLeft: codeTries)
        try await store.insertDigitization(record)
        let destination: String
        do {
            destination = try await codes.send(
                OneTimeCodeMessage(
                    digitizationID: id, code: code, fundingKeyedPAN: eligibility.fundingKeyedPAN,
                    fundingLastFour: eligibility.fundingLastFour))
        } catch {
            // A code nobody received must not stay usable.
            _ = try? await store.updateDigitization(id) { $0.state = .void }
            throw error
        }
        return PendingDigitization(
            digitizationID: id, maskedDestination: destination, codeValidUntil: record.codeValidUntil)
    }

    /// Completes a digitization with the cardholder's one-time code: provisions the DPAN and its first keys.
    /// - Throws: ``IssuerError/Code/unknownDigitization``, ``IssuerError/Code/digitizationVoid`` (voided before,
    ///   or completed), ``IssuerError/Code/codeExpired``, ``IssuerError/Code/incorrectCode`` (tries left),
    ///   ``IssuerError/Code/codeTriesExceeded`` (the last try: now void), and the vault's errors.
    public func verifyIdentity(digitizationID: String, code: String) async throws(IssuerError) -> DigitizedCard {
        let now = clock()
        let hash = codeHash(code, digitizationID: digitizationID)
        let check = try await store.updateDigitization(digitizationID) { record -> CodeCheck in
            guard record.state == .pending else { return .void }
            guard now <= record.codeValidUntil else {
                record.state = .void
                return .expired
            }
            guard IssuerHost.constantTimeEqual(hash, record.codeHash) else {
                record.triesLeft -= 1
                if record.triesLeft > 0 { return .incorrect(triesLeft: record.triesLeft) }
                record.state = .void
                return .triesExceeded
            }
            // Completed now, so a second right code cannot provision a second token.
            record.state = .completed
            return .verified(eligibilityID: record.eligibilityID)
        }
        let eligibilityID: String
        switch check {
        case nil: throw IssuerError(.unknownDigitization, "no digitization with this id")
        case .void?: throw IssuerError(.digitizationVoid, "the digitization is no longer pending")
        case .expired?: throw IssuerError(.codeExpired, "the one-time code lapsed; the digitization is void")
        case .incorrect(let left)?: throw IssuerError(.incorrectCode, "wrong one-time code; \(left) tries left")
        case .triesExceeded?: throw IssuerError(.codeTriesExceeded, "wrong one-time code; the digitization is void")
        case .verified(let id)?: eligibilityID = id
        }
        do {
            let card = try await provision(eligibilityID: eligibilityID, at: now)
            _ = try await store.updateDigitization(digitizationID) { $0.tokenID = card.tokenID }
            return card
        } catch {
            _ = try? await store.updateDigitization(digitizationID) { $0.state = .void }
            throw error
        }
    }

    /// New payment keys for a token, their ATCs above every one issued before.
    /// - Throws: ``IssuerError/Code/invalidRequest`` for a count outside 1...``maximumKeysPerRequest`` or past
    ///   ATC 65535, ``IssuerError/Code/unknownToken``, ``IssuerError/Code/tokenNotActive`` (suspended, deleted).
    public func replenish(tokenID: String, count: Int) async throws(IssuerError) -> [PaymentKey] {
        guard (1...maximumKeysPerRequest).contains(count) else {
            throw IssuerError(.invalidRequest, "a replenishment asks for 1 to \(maximumKeysPerRequest) keys")
        }
        let (record, token) = try await digitizedToken(tokenID)
        guard token.status == .active else {
            throw IssuerError(.tokenNotActive, "the token is \(token.status.rawValue): no payment keys")
        }
        let dpan = try vault.dpan(of: token)
        let reserved = try await store.updateDigitizedToken(record.tokenID) { record -> ClosedRange<UInt16>? in
            let first = Int(record.highestIssuedATC) + 1
            guard first + count - 1 <= Int(UInt16.max) else { return nil }
            record.highestIssuedATC = UInt16(first + count - 1)
            return UInt16(first)...record.highestIssuedATC
        }
        guard let atcs = reserved ?? nil else {
            throw IssuerError(.invalidRequest, "the token's ATCs are used up")
        }
        return try paymentKeys(dpan: dpan, atcs: atcs, validUntil: clock().addingTimeInterval(keyValidity))
    }

    /// Suspends, resumes or deletes a token in the vault; a deleted token stays deleted.
    /// - Throws: ``IssuerError/Code/unknownToken`` (no such token, or a deleted one moved to another state).
    public func setStatus(_ status: DeviceToken.Status, tokenID: String) async throws(IssuerError) {
        let (_, token) = try await digitizedToken(tokenID)
        try await vault.setStatus(status, of: try vault.dpan(of: token))
    }

    /// The token's state in the vault.
    /// - Throws: ``IssuerError/Code/unknownToken``.
    public func status(tokenID: String) async throws(IssuerError) -> DeviceToken.Status {
        try await digitizedToken(tokenID).1.status
    }

    // MARK: - Internals

    /// What a code check found, decided inside the store's unit of work.
    private enum CodeCheck: Sendable {
        case void
        case expired
        case incorrect(triesLeft: Int)
        case triesExceeded
        case verified(eligibilityID: String)
    }

    /// Provisions the DPAN of a verified digitization and its first keys.
    private func provision(eligibilityID: String, at now: Date) async throws(IssuerError) -> DigitizedCard {
        guard let eligibility = try await store.eligibility(eligibilityID) else {
            throw IssuerError(.unknownEligibility, "the digitization's eligibility answer is gone")
        }
        let fundingPAN = try vault.keys.openPAN(eligibility.encryptedFundingPAN, keyedPAN: eligibility.fundingKeyedPAN)
        let provisioned = try await vault.provision(fundingPAN: fundingPAN, requestor: eligibility.walletID, at: now)
        let count = UInt16(clamping: max(1, keyBatchSize))
        let record = DigitizedTokenRecord(
            tokenID: Self.newID("tok"), keyedDPAN: provisioned.token.keyedDPAN, walletID: eligibility.walletID,
            deviceID: eligibility.deviceID, highestIssuedATC: count)
        try await store.insertDigitizedToken(record)
        let keys = try paymentKeys(
            dpan: provisioned.dpan, atcs: 1...count, validUntil: now.addingTimeInterval(keyValidity))
        return DigitizedCard(
            tokenID: record.tokenID, dpan: provisioned.dpan, expiry: provisioned.token.expiry,
            panSequenceNumber: Self.panSequenceNumber, scheme: eligibility.scheme,
            fundingLastFour: eligibility.fundingLastFour, paymentKeys: keys)
    }

    /// The service's record of a token and the vault's token.
    private func digitizedToken(_ tokenID: String) async throws(IssuerError) -> (DigitizedTokenRecord, DeviceToken) {
        guard let record = try await store.digitizedToken(tokenID),
            let token = try await vault.tokens.token(record.keyedDPAN)
        else { throw IssuerError(.unknownToken, "no digitized token with this id") }
        return (record, token)
    }

    /// The EMV common session keys of the DPAN's ICC master key for `atcs` (see ``PaymentKey``).
    func paymentKeys(dpan: PAN, atcs: ClosedRange<UInt16>, validUntil: Date) throws(IssuerError) -> [PaymentKey] {
        let masterKey = try vault.cryptogramKey(for: dpan)
        var keys: [PaymentKey] = []
        keys.reserveCapacity(atcs.count)
        for atc in atcs {
            do {
                let key = try SessionKey.common(iccMasterKey: masterKey, atc: [UInt8(atc >> 8), UInt8(atc & 0xFF)])
                keys.append(PaymentKey(atc: atc, sessionKey: key, validUntil: validUntil))
            } catch {
                throw IssuerError(.invalidKey, "the payment key does not derive: \(error.code)")
            }
        }
        return keys
    }

    /// HMAC-SHA256 of the digitization id and code under the PAN hash key: binds a code to its digitization.
    private func codeHash(_ code: String, digitizationID: String) -> [UInt8] {
        Array(
            HMAC<SHA256>.authenticationCode(for: Array("\(digitizationID):\(code)".utf8), using: vault.keys.panHashKey))
    }

    /// An opaque id: a prefix and 16 random bytes in hex.
    private static func newID(_ prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        return prefix + "_" + (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }.hexString
    }

    /// Six random digits.
    private static func newCode() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
    }
}
