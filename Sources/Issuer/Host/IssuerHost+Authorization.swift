import Crypto
import EMV
import Foundation
import ISO8583

extension IssuerHost {
    /// What the checks outside the account found: the verified cryptogram (for the ARPC and the ATC) or the
    /// result that ends the authorization before the account is touched.
    enum CryptogramCheck {
        case verified(CardCryptograms, arqc: [UInt8], atc: [UInt8])
        case failed(AuthorizationResult)
    }

    /// 0100 → 0110, or nil for a card whose account simulates an issuer timeout.
    ///
    /// Order of checks: the request's fields (`30`), the BIN's master keys (`96`), the ARQC and the amount and
    /// currency it covers (`88`); then, on the account in one repository unit: unknown card (`14`), ATC not above
    /// the last (`63`), status (`41`, `43`, `54`, `05`), expiry (`54`), currency (`12`), per-transaction limit
    /// (`61`), PIN (`75`, `55`, `65`), balance (`51`), approval (`00`).
    ///
    /// A PAN that is a token in the vault (a wallet's digitized card) is authorized against its funding account
    /// (``authorizeDigitizedCard(_:_:token:vault:at:)``).
    func authorize(_ message: ISO8583Message, at date: Date) async -> ISO8583Message? {
        if message.isTokenPayment { return await authorizeToken(message, at: date) }
        guard let request = try? ReceivedAuthorizationRequest(message), !request.iccData.isEmpty else {
            return response(to: message, code: .formatError)
        }
        if let tokenVault {
            do {
                if let token = try await tokenVault.token(for: request.pan) {
                    return await authorizeDigitizedCard(message, request, token: token, vault: tokenVault, at: date)
                }
            } catch {
                return response(to: message, code: .systemMalfunction)
            }
        }
        let card: CardCryptograms
        let arqc: [UInt8]
        let atc: [UInt8]
        switch checkCryptogram(request) {
        case .failed(let result): return response(to: message, code: result.responseCode ?? .systemMalfunction)
        case .verified(let verified, let cryptogram, let counter): (card, arqc, atc) = (verified, cryptogram, counter)
        }
        let keyedPAN = keys.keyedHash(of: request.pan)
        let candidatePIN = request.pinBlock.map { pinVerificationValue(of: $0, pan: request.pan) }
        let approvalCode = Self.approvalCode(keyedPAN: keyedPAN, atc: atc)
        let atcValue = UInt16(atc[0]) << 8 | UInt16(atc[1])
        let today = Self.utcDate(date)
        let decision: AuthorizationDecision?
        do {
            decision = try await repository.authorize(keyedPAN) { account in
                Self.decide(
                    request, on: &account, atc: atcValue, candidatePIN: candidatePIN, today: today,
                    approval: AuthorizationRecord(
                        reference: request.reference, keyedPAN: keyedPAN, amount: request.amount,
                        approvalCode: approvalCode, date: date))
            }
        } catch {
            return response(to: message, code: .systemMalfunction)
        }
        return chipAnswer(
            message, with: decision?.result ?? .unknownCard, approvalCode: approvalCode, card: card, arqc: arqc,
            atc: atc)
    }

    /// The 0110 of a verified ARQC: ``answer(_:with:approvalCode:)`` and, in field 55, tag 91 with the ARPC.
    func chipAnswer(
        _ message: ISO8583Message, with result: AuthorizationResult, approvalCode: String, card: CardCryptograms,
        arqc: [UInt8], atc: [UInt8]
    ) -> ISO8583Message? {
        guard let code = result.responseCode else { return nil }
        return answer(
            message, with: result, approvalCode: approvalCode,
            issuerAuthenticationData: try? Self.issuerAuthenticationData(
                card, arqc: arqc, atc: atc, code: code, approved: result == .approved))
    }

    /// Verifies the ARQC of field 55 under the card's keys, derived from the BIN range's master keys for the
    /// version the IAD and AID name (or, for a token, its ICC master keys `iccMasterKeys`), and that the request's
    /// amount and currency are the cryptogram's.
    func checkCryptogram(_ request: ReceivedAuthorizationRequest, iccMasterKeys: ICCMasterKeys? = nil)
        -> CryptogramCheck
    {
        let masterKeys = keys.masterKeys(forPAN: request.pan.digits)
        guard iccMasterKeys != nil || masterKeys != nil else { return .failed(.systemMalfunction) }
        let icc = request.iccData
        guard let arqc = icc.first(.applicationCryptogram).map({ Array($0.value) }),
            let atc = icc.first(.applicationTransactionCounter).map({ Array($0.value) }), atc.count == 2,
            let iad = icc.first(.issuerApplicationData),
            let aid = icc.first(.dedicatedFileName) ?? icc.first(.applicationIdentifier)
        else { return .failed(.formatError) }
        guard let covered = request.cryptogramAmount, covered.minorUnits == request.amount,
            covered.currency.numericCode == request.currencyCode
        else { return .failed(.cryptogramFailure) }
        do {
            let version = try CryptogramVersion(
                issuerApplicationData: Array(iad.value), applicationIdentifier: aid.value)
            let cardKeys: ICCMasterKeys
            if let iccMasterKeys {
                cardKeys = iccMasterKeys
            } else if let masterKeys {
                cardKeys = try ICCMasterKeys(
                    issuerMasterKeyAC: masterKeys.ac, issuerMasterKeySMI: masterKeys.smi,
                    issuerMasterKeySMC: masterKeys.smc, pan: request.pan.digits,
                    psn: request.panSequenceNumber.map { [$0].hexString },
                    option: version.masterKeyDerivation)
            } else {
                return .failed(.systemMalfunction)
            }
            let card = CardCryptograms(version: version, iccMasterKeys: cardKeys)
            guard try card.verifyAC(authorizationData: icc) else { return .failed(.cryptogramFailure) }
            return .verified(card, arqc: arqc, atc: atc)
        } catch {
            return .failed(.cryptogramFailure)
        }
    }

    /// The decision on the account, run inside the repository's unit of work.
    private static func decide(
        _ request: ReceivedAuthorizationRequest, on account: inout CardAccount, atc: UInt16, candidatePIN: [UInt8]??,
        today: EMVDate?, approval: AuthorizationRecord
    ) -> AuthorizationDecision {
        // Single tap and PIN: the cryptogram answered "PIN required" may return with a PIN, until a decision.
        let isPINResubmission = candidatePIN != nil && account.pinPendingATC == atc
        if let last = account.lastATC, atc <= last, !isPINResubmission {
            return AuthorizationDecision(result: .cryptogramReplayed)
        }
        // The card spent this ATC whatever the outcome: a later request may not reuse it.
        account.lastATC = max(atc, account.lastATC ?? 0)
        account.pinPendingATC = nil
        return decideOnAccount(
            &account, amount: request.amount, currencyCode: request.currencyCode, expiry: request.expiry, atc: atc,
            candidatePIN: candidatePIN, deviceVerified: false, today: today, approval: approval)
    }

    /// The account's part of a decision, shared by card and token payments: status, expiry (the request's, when
    /// it carries the card's), currency, limit, PIN (a token payment's device verification stands in for it) and
    /// balance.
    static func decideOnAccount(
        _ account: inout CardAccount, amount: Int, currencyCode: Int, expiry: ExpiryDate?, atc: UInt16,
        candidatePIN: [UInt8]??, deviceVerified: Bool, today: EMVDate?, approval: AuthorizationRecord
    ) -> AuthorizationDecision {
        if account.simulatesNoResponse { return AuthorizationDecision(result: .noResponse) }
        switch account.status {
        case .active: break
        case .lost: return AuthorizationDecision(result: .lostCard)
        case .stolen: return AuthorizationDecision(result: .stolenCard)
        case .expired: return AuthorizationDecision(result: .expiredCard)
        case .blocked: return AuthorizationDecision(result: .doNotHonour)
        }
        if let expiry, expiry != account.expiry { return AuthorizationDecision(result: .expiredCard) }
        guard let today, !account.expiry.isExpired(on: today) else {
            return AuthorizationDecision(result: .expiredCard)
        }
        guard currencyCode == account.currency.numericCode else {
            return AuthorizationDecision(result: .invalidTransaction)
        }
        if let limit = account.perTransactionLimit, amount > limit {
            return AuthorizationDecision(result: .exceedsAmountLimit)
        }
        if let candidatePIN {
            guard account.wrongPINCount < account.pinTryLimit else {
                return AuthorizationDecision(result: .pinTriesExceeded)
            }
            guard let candidatePIN, let expected = account.pinVerificationValue,
                constantTimeEqual(candidatePIN, expected)
            else {
                account.wrongPINCount += 1
                let exceeded = account.wrongPINCount >= account.pinTryLimit
                // A wrong PIN with tries left: the same cryptogram may come back with another PIN.
                if !exceeded { account.pinPendingATC = atc }
                return AuthorizationDecision(result: exceeded ? .pinTriesExceeded : .incorrectPIN)
            }
            account.wrongPINCount = 0
        } else if !deviceVerified,
            account.requiresStrongCustomerAuthentication || account.onlinePINLimit.map({ amount > $0 }) == true
        {
            account.pinPendingATC = atc
            return AuthorizationDecision(result: .pinRequired)
        }
        guard account.availableBalance >= amount else {
            return AuthorizationDecision(result: .insufficientFunds)
        }
        account.availableBalance -= amount
        return AuthorizationDecision(result: .approved, record: approval)
    }

    /// The PIN verification value of the PIN in a PIN block: 8 bytes are ISO 9564 format 0 under the zone PIN key,
    /// 16 bytes format 4 under the PIN encryption key. nil when the block does not decipher to a PIN (counted as a
    /// wrong PIN).
    private func pinVerificationValue(of pinBlock: [UInt8], pan: PAN) -> [UInt8]? {
        let pin: String
        do {
            switch pinBlock.count {
            case 8: pin = try PINBlock.decodeISO0(try TDESKey(keys.zonePINKey).decryptECB(pinBlock), pan: pan.digits)
            case 16: pin = try PINBlock.decipherISO4(pinBlock, pan: pan.digits, key: keys.pinEncryptionKey)
            default: return nil
            }
        } catch {
            return nil
        }
        return try? keys.pinVerificationValue(pin: pin, pan: pan)
    }

    /// The value of tag 91 in the response's field 55, Issuer Authentication Data. Method 1: ARPC (8) ‖ ARC (field 39's two
    /// characters); method 2: ARPC (4) ‖ CSU (4), the CSU with byte 2 bit 8 ("issuer approves") set on approval.
    private static func issuerAuthenticationData(
        _ card: CardCryptograms, arqc: [UInt8], atc: [UInt8], code: ResponseCode, approved: Bool
    ) throws -> [UInt8] {
        let value: [UInt8]
        switch card.version.arpcMethod {
        case .method1:
            value =
                try card.generateARPC(arqc: arqc, atc: atc, responseCode: code.arpcResponseCode)
                + code.arpcResponseCode
        case .method2:
            let csu = cardStatusUpdate(approved: approved)
            value = try card.generateARPC(arqc: arqc, atc: atc, cardStatusUpdate: csu) + csu
        }
        return value
    }

    /// The Visa card status update of an ARPC of method 2: byte 2 bit 8 set when the issuer approves.
    static func cardStatusUpdate(approved: Bool) -> [UInt8] {
        [0x00, approved ? 0x80 : 0x00, 0x00, 0x00]
    }

    /// The 0110 answering `message` with `result`: nil when the account stays silent (a test card simulating a
    /// timeout), the approval code in field 38 when approved, tag 91 in field 55 when there is an ARPC.
    func answer(
        _ message: ISO8583Message, with result: AuthorizationResult, approvalCode: String,
        issuerAuthenticationData: [UInt8]? = nil
    ) -> ISO8583Message? {
        guard let code = result.responseCode else { return nil }
        return AuthorizationResponse(
            responseCode: code, approvalCode: result == .approved ? approvalCode : nil,
            issuerAuthenticationData: issuerAuthenticationData
        ).message(answering: message)
    }

    /// The transaction date of `date` in UTC, as the card's 9A would carry it; nil only for dates EMV can't hold.
    static func utcDate(_ date: Date) -> EMVDate? {
        try? EMVDate(date, timeZone: utc)
    }

    /// UTC, looked up once rather than by name on every authorization.
    private static let utc = TimeZone(secondsFromGMT: 0) ?? .current

    /// A six-character approval code, deterministic per card and ATC: the first three bytes of
    /// SHA-256(keyed PAN hash ‖ ATC) in upper-case hex.
    static func approvalCode(keyedPAN: KeyedPANHash, atc: [UInt8]) -> String {
        Array(SHA256.hash(data: keyedPAN.bytes + atc)).prefix(3).hexString.uppercased()
    }

    /// Whether two byte strings are equal, in time independent of where they differ.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
