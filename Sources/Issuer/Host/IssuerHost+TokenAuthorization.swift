import EMV
import Foundation
import ISO8583

extension IssuerHost {
    /// 0100 of a remote token payment → 0110: the DPAN in field 2 (its expiry in 14, when sent), the cryptogram
    /// and ECI in field 48 (``TokenPaymentData``), no field 55.
    ///
    /// Order of checks: the request's fields (`30`), then the vault's (``TokenVault``: master keys `96`, cryptogram
    /// `88`, token `14`/`05`/`54`, ATC `63`), then the funding account's as for a card (status, expiry, currency,
    /// limit, balance), with the device's cardholder verification standing in for a PIN. The approval is recorded
    /// against the funding account, under the request's STAN, RRN and terminal, so a 0400 with the DPAN reverses it.
    func authorizeToken(_ message: ISO8583Message, at date: Date) async -> ISO8583Message? {
        guard let request = try? ReceivedAuthorizationRequest(message), let data = request.tokenPaymentData else {
            return response(to: message, code: .formatError)
        }
        let (dpan, amount, currencyCode, expiry) = (request.pan, request.amount, request.currencyCode, request.expiry)
        guard let tokenVault else { return response(to: message, code: .invalidCardNumber) }
        let token: DeviceToken
        let atc: UInt16
        switch await tokenVault.check(
            dpan: dpan, expiry: expiry, cryptogram: data.cryptogram, amount: amount, currencyCode: currencyCode,
            at: date)
        {
        case .failed(let result): return response(to: message, code: result.responseCode ?? .systemMalfunction)
        case .verified(let verified, let counter): (token, atc) = (verified, counter)
        }
        let approvalCode = Self.approvalCode(keyedPAN: token.keyedDPAN, atc: [UInt8(atc >> 8), UInt8(atc & 0xFF)])
        let today = Self.utcDate(date)
        let record = AuthorizationRecord(
            reference: request.reference, keyedPAN: token.fundingKeyedPAN, amount: amount, approvalCode: approvalCode,
            date: date)
        let decision: AuthorizationDecision?
        do {
            decision = try await repository.authorize(token.fundingKeyedPAN) { account in
                Self.decideOnAccount(
                    &account, amount: amount, currencyCode: currencyCode, expiry: nil, atc: atc, candidatePIN: nil,
                    deviceVerified: true, today: today, approval: record)
            }
        } catch {
            return response(to: message, code: .systemMalfunction)
        }
        return answer(message, with: decision?.result ?? .unknownCard, approvalCode: approvalCode)
    }
}
