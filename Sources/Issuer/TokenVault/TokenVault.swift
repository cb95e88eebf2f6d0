public import EMV
public import Foundation

/// The issuer's token vault: provisions device account numbers (DPANs) for funding card accounts, maps a DPAN back
/// to its account, manages the token's state, and makes and checks its online payment cryptograms.
///
/// ```swift
/// let vault = TokenVault(keys: keys, accounts: repository, tokens: repository)
/// let provisioned = try await vault.provision(fundingPAN: pan, requestor: "applePay", at: now)
/// let cryptogram = try vault.makeCryptogram(
///     dpan: provisioned.dpan, amount: 1000, currency: eur, atc: 1, at: now)  // the device's side
/// ```
///
/// ## Keys
/// A DPAN lies in a token BIN range of its funding card's scheme (``TokenRange``); the issuer's ``IssuerKeys`` hold
/// the range's issuer master keys. The token's cryptogram key is the ICC master key of the DPAN with option A
/// under the range's IMK-AC (PSN `00`), so the vault stores no key per token; each cryptogram then has its own
/// session key (``EMV/OnlinePaymentCryptogram`` documents the session key and the MAC). Only the token's device
/// (or the token service acting for it) gets ``cryptogramKey(for:)``.
///
/// ## Checks on a payment
/// The cryptogram must verify for the DPAN, amount and currency of the request, carry a time within
/// ``cryptogramValidity`` of the request, and an ATC above the last one accepted (the ATC is spent even when the
/// account then declines); the token must be active and its expiry, when the request carries one, the token's.
public struct TokenVault: Sendable {
    /// A token just provisioned, with its DPAN for the wallet (the vault keeps it only encrypted).
    public struct ProvisionedToken: Sendable, CustomStringConvertible {
        /// The device account number.
        public let dpan: PAN
        /// The vault's row.
        public let token: DeviceToken

        /// The token's description: the DPAN masked.
        public var description: String { token.description }
    }

    /// The issuer's keys: master keys of the token ranges, PAN hash and encryption keys.
    public let keys: IssuerKeys
    /// The card accounts tokens are provisioned for.
    public let accounts: any IssuerRepository
    /// Where the tokens are.
    public let tokens: any TokenVaultRepository
    /// Token BIN ranges per funding scheme.
    public let ranges: [TokenRange]
    /// How far a cryptogram's time may be from the request's: one hour each way by default.
    public var cryptogramValidity: TimeInterval = 3600
    /// How many years a new token is valid: three by default.
    public var validityYears = 3

    /// Creates a vault.
    public init(
        keys: IssuerKeys, accounts: any IssuerRepository, tokens: any TokenVaultRepository,
        ranges: [TokenRange] = TokenRange.test
    ) {
        self.keys = keys
        self.accounts = accounts
        self.tokens = tokens
        self.ranges = ranges
    }

    /// Provisions a new active token for the funding card `fundingPAN`: a fresh DPAN of the same length (at least
    /// 16 digits) in the scheme's token range, valid ``validityYears`` from `date`.
    /// - Throws: ``IssuerError/Code/unknownToken`` when no active account has this PAN,
    ///   ``IssuerError/Code/noTokenRange`` when no token range (with master keys) covers it,
    ///   ``IssuerError/Code/storageFailed``.
    public func provision(fundingPAN: PAN, requestor: String, at date: Date) async throws(IssuerError)
        -> ProvisionedToken
    {
        let fundingKeyedPAN = keys.keyedHash(of: fundingPAN)
        guard let account = try await accounts.account(fundingKeyedPAN), account.status == .active else {
            throw IssuerError(.unknownToken, "no active card account to tokenize")
        }
        guard let range = range(forFunding: fundingPAN) else {
            throw IssuerError(.noTokenRange, "no token range with master keys covers the funding card's BIN")
        }
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(secondsFromGMT: 0) ?? .current, from: date)
        guard let year = parts.year, let month = parts.month,
            let expiry = try? ExpiryDate(year: year + validityYears, month: month)
        else { throw IssuerError(.invalidKey, "no token expiry for this date") }
        // A clash with an existing DPAN is unlikely (10^9 numbers per range); try a few before giving up.
        for _ in 0..<5 {
            let dpan = try Self.randomPAN(prefix: range.tokenPrefix, length: max(16, fundingPAN.length))
            let token = DeviceToken(
                keyedDPAN: keys.keyedHash(of: dpan), encryptedDPAN: try keys.encrypt(dpan), maskedDPAN: dpan.masked,
                fundingKeyedPAN: fundingKeyedPAN, expiry: expiry, requestor: requestor, provisionedAt: date)
            do {
                try await tokens.insertToken(token)
                return ProvisionedToken(dpan: dpan, token: token)
            } catch where error.code == .duplicateAccount {
                continue
            }
        }
        throw IssuerError(.storageFailed, "no free device account number after five tries")
    }

    /// The token range of a funding card: the longest funding prefix that matches, if the issuer has master keys
    /// for its token prefix.
    public func range(forFunding fundingPAN: PAN) -> TokenRange? {
        guard
            let range = ranges.filter({ fundingPAN.digits.hasPrefix($0.fundingPrefix) })
                .max(by: { $0.fundingPrefix.count < $1.fundingPrefix.count }),
            keys.masterKeys(forPAN: range.tokenPrefix) != nil
        else { return nil }
        return range
    }

    /// The token of `dpan`; nil when the vault has none.
    public func token(for dpan: PAN) async throws(IssuerError) -> DeviceToken? {
        // The vault issues DPANs only inside its token BINs: a PAN outside them is a card's, no lookup needed (one
        // database read fewer on every card payment).
        guard ranges.contains(where: { dpan.digits.hasPrefix($0.tokenPrefix) }) else { return nil }
        return try await tokens.token(keys.keyedHash(of: dpan))
    }

    /// The funding card account of `dpan`; nil when the vault or the account is missing.
    public func fundingAccount(of dpan: PAN) async throws(IssuerError) -> CardAccount? {
        guard let token = try await token(for: dpan) else { return nil }
        return try await accounts.account(token.fundingKeyedPAN)
    }

    /// The tokens of a funding card, oldest first.
    public func tokens(of fundingPAN: PAN) async throws(IssuerError) -> [DeviceToken] {
        try await tokens.tokens(funding: keys.keyedHash(of: fundingPAN))
    }

    /// Moves the token to `status` (suspend, resume, delete); a deleted token stays deleted.
    /// - Throws: ``IssuerError/Code/unknownToken`` when there is no such token, or it is deleted and `status` is
    ///   not; ``IssuerError/Code/storageFailed``.
    @discardableResult
    public func setStatus(_ status: DeviceToken.Status, of dpan: PAN) async throws(IssuerError) -> DeviceToken {
        let updated = try await tokens.updateToken(keys.keyedHash(of: dpan)) { token -> DeviceToken? in
            guard token.status != .deleted || status == .deleted else { return nil }
            token.status = status
            return token
        }
        guard let updated, let token = updated else {
            throw IssuerError(.unknownToken, "no token to change, or it is deleted")
        }
        return token
    }

    /// The DPAN of a stored token, opened from its encrypted form.
    /// - Throws: ``IssuerError/Code/unreadableAccount`` when it does not open under the data key.
    public func dpan(of token: DeviceToken) throws(IssuerError) -> PAN {
        try keys.openPAN(token.encryptedDPAN, keyedPAN: token.keyedDPAN)
    }

    /// The token's 16-byte cryptogram key: the ICC master key of the DPAN, option A, under its range's IMK-AC.
    /// For the token's device (or the token service acting for it) only.
    /// - Throws: ``IssuerError/Code/noTokenRange`` when the issuer has no master keys for the DPAN.
    public func cryptogramKey(for dpan: PAN) throws(IssuerError) -> [UInt8] {
        try iccMasterKeys(for: dpan).ac
    }

    /// The token's three ICC master keys (AC, SMI, SMC): option A over the DPAN and PSN `00` under its range's
    /// issuer master keys, whatever option the card's cryptogram version names, so one derivation serves every
    /// scheme; ``cryptogramKey(for:)`` is the AC key. The issuer's side, for checking the token card's ARQCs.
    /// - Throws: ``IssuerError/Code/noTokenRange`` when the issuer has no master keys for the DPAN.
    public func iccMasterKeys(for dpan: PAN) throws(IssuerError) -> ICCMasterKeys {
        guard let masterKeys = keys.masterKeys(forPAN: dpan.digits) else {
            throw IssuerError(.noTokenRange, "no issuer master keys for the device account number's range")
        }
        do {
            return try ICCMasterKeys(
                issuerMasterKeyAC: masterKeys.ac, issuerMasterKeySMI: masterKeys.smi,
                issuerMasterKeySMC: masterKeys.smc, pan: dpan.digits, psn: "00", option: .a)
        } catch {
            throw IssuerError(.invalidKey, "the token key does not derive: \(error.code)")
        }
    }

    /// The online payment cryptogram the token's device makes for a payment (the simulated device's side).
    /// - Parameters:
    ///   - dpan: The device account number.
    ///   - amount: The amount in `currency`'s minor units.
    ///   - currency: The payment currency.
    ///   - atc: The device's next transaction counter for the token.
    ///   - unpredictableNumber: 4 bytes; random by default.
    ///   - date: When the payment is made.
    /// - Throws: ``IssuerError/Code/noTokenRange``; ``IssuerError/Code/invalidKey`` when the inputs do not make a
    ///   cryptogram (an amount above n12).
    public func makeCryptogram(
        dpan: PAN, amount: Int, currency: Currency, atc: UInt16, unpredictableNumber: [UInt8]? = nil, at date: Date
    ) throws(IssuerError) -> OnlinePaymentCryptogram {
        let key = try cryptogramKey(for: dpan)
        var generator = SystemRandomNumberGenerator()
        let un = unpredictableNumber ?? (0..<4).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        do {
            return try OnlinePaymentCryptogram.generate(
                tokenKey: key, dpan: dpan.digits, amount: amount, currencyCode: currency.numericCode, atc: atc,
                unpredictableNumber: un, time: date)
        } catch {
            throw IssuerError(.invalidKey, "no cryptogram for these inputs: \(error.code)")
        }
    }

    /// A random PAN with `prefix`, `length` digits and a valid check digit.
    static func randomPAN(prefix: String, length: Int) throws(IssuerError) -> PAN {
        var generator = SystemRandomNumberGenerator()
        let body = prefix + String((0..<max(0, length - 1 - prefix.count)).map { _ in
            Character(String(Int.random(in: 0...9, using: &generator)))
        })
        guard let check = PAN.luhnCheckDigit(for: body), let pan = try? PAN(body + String(check)) else {
            throw IssuerError(.invalidPAN, "the token range does not make a valid PAN")
        }
        return pan
    }
}
