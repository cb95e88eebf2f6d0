import EMV
import Foundation

extension TokenVault {
    /// What the vault found about a token payment: the token (its ATC now spent) or the result that ends it.
    enum PaymentCheck: Sendable {
        case verified(DeviceToken, atc: UInt16)
        case failed(AuthorizationResult)
    }

    /// Checks a token payment's cryptogram and token, and spends its ATC (see the type's documentation).
    ///
    /// Order: master keys of the DPAN's range (`96`), cryptogram format, MAC over DPAN, amount and currency, and
    /// time window (`88`); then the token (``checkToken(_:expiry:atc:at:)``).
    func check(
        dpan: PAN, expiry: ExpiryDate?, cryptogram bytes: [UInt8], amount: Int, currencyCode: Int, at date: Date
    ) async -> PaymentCheck {
        guard let key = try? cryptogramKey(for: dpan) else { return .failed(.systemMalfunction) }
        guard let cryptogram = try? OnlinePaymentCryptogram(bytes: bytes),
            (try? cryptogram.verify(tokenKey: key, dpan: dpan.digits, amount: amount, currencyCode: currencyCode))
                == true,
            abs(cryptogram.time.timeIntervalSince(date)) <= cryptogramValidity
        else { return .failed(.cryptogramFailure) }
        return await checkToken(keys.keyedHash(of: dpan), expiry: expiry, atc: cryptogram.atc, at: date)
    }

    /// Checks the token of a payment whose cryptogram verified, and spends its ATC, in one unit: unknown or deleted
    /// (`14`), suspended (`05`), the request's expiry not the token's or the token expired (`54`), ATC not above the
    /// last (`63`).
    func checkToken(_ keyedDPAN: KeyedPANHash, expiry: ExpiryDate?, atc: UInt16, at date: Date) async -> PaymentCheck {
        let today = try? EMVDate(date, timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
        let outcome: PaymentCheck?
        do {
            outcome = try await tokens.updateToken(keyedDPAN) { token -> PaymentCheck in
                switch token.status {
                case .active: break
                case .suspended: return .failed(.doNotHonour)
                case .deleted: return .failed(.unknownCard)
                }
                if let expiry, expiry != token.expiry { return .failed(.expiredCard) }
                guard let today, !token.expiry.isExpired(on: today) else { return .failed(.expiredCard) }
                if let last = token.lastATC, atc <= last { return .failed(.cryptogramReplayed) }
                token.lastATC = atc
                return .verified(token, atc: atc)
            }
        } catch {
            return .failed(.systemMalfunction)
        }
        return outcome ?? .failed(.unknownCard)
    }
}
