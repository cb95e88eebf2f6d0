import EMV
import Foundation
import ISO8583

extension IssuerHost {
    /// 0100 of a chip payment by a wallet's digitized card → 0110: field 2 holds a DPAN of the vault, field 55 the
    /// ARQC made with one of its limited-use keys (``DigitizationService``, ``PaymentKey``).
    ///
    /// Order of checks: the request's fields (`30`, already read), the token's keys (`96`), the ARQC under the
    /// DPAN's ICC master keys (option A, PSN `00`) and the amount and currency it covers (`88`); then the token in
    /// one unit (``TokenVault``: unknown or deleted `14`, suspended `05`, field 14 not its expiry or expired `54`,
    /// ATC not above the last `63`, else the ATC is spent); then the funding account as for a card (status,
    /// expiry, currency, limit, balance), the wallet's on-device verification standing in for online PIN. The
    /// approval is recorded against the funding account with the Mastercard wallet transaction data, if any; the
    /// 0110 carries the ARPC like a card's.
    func authorizeDigitizedCard(
        _ message: ISO8583Message, _ request: ReceivedAuthorizationRequest, token: DeviceToken, vault: TokenVault,
        at date: Date
    ) async -> ISO8583Message? {
        guard let iccMasterKeys = try? vault.iccMasterKeys(for: request.pan) else {
            return response(to: message, code: .systemMalfunction)
        }
        let card: CardCryptograms
        let arqc: [UInt8]
        let atc: [UInt8]
        switch checkCryptogram(request, iccMasterKeys: iccMasterKeys) {
        case .failed(let result): return response(to: message, code: result.responseCode ?? .systemMalfunction)
        case .verified(let verified, let cryptogram, let counter): (card, arqc, atc) = (verified, cryptogram, counter)
        }
        let atcValue = UInt16(atc[0]) << 8 | UInt16(atc[1])
        let checked: DeviceToken
        switch await vault.checkToken(token.keyedDPAN, expiry: request.expiry, atc: atcValue, at: date) {
        case .failed(let result):
            return chipAnswer(message, with: result, approvalCode: "", card: card, arqc: arqc, atc: atc)
        case .verified(let verified, _): checked = verified
        }
        let approvalCode = Self.approvalCode(keyedPAN: checked.keyedDPAN, atc: atc)
        let record = AuthorizationRecord(
            reference: request.reference, keyedPAN: checked.fundingKeyedPAN, amount: request.amount,
            approvalCode: approvalCode, date: date,
            walletTransactionData: request.walletTransactionData(for: card.version))
        let today = Self.utcDate(date)
        let decision: AuthorizationDecision?
        do {
            decision = try await repository.authorize(checked.fundingKeyedPAN) { account in
                Self.decideOnAccount(
                    &account, amount: request.amount, currencyCode: request.currencyCode, expiry: nil, atc: atcValue,
                    candidatePIN: nil, deviceVerified: true, today: today, approval: record)
            }
        } catch {
            return response(to: message, code: .systemMalfunction)
        }
        return chipAnswer(
            message, with: decision?.result ?? .unknownCard, approvalCode: approvalCode, card: card, arqc: arqc,
            atc: atc)
    }
}
