import CardEmulator
import ContactlessTesting
import EMV
import Foundation
import Issuer
import Wallet

/// TEMPORARY until wallet-issuer's DigitizationService lands: the issuer's side from the shipped profiles' keys.
final class TestIssuer: @unchecked Sendable {
    let service: Scratch
    init(clock: TestClock, keyCount: Int) throws { service = Scratch(clock: clock, keyCount: keyCount) }
    func lastCode() async throws -> String { "123456" }

    final class Scratch: WalletIssuerService, @unchecked Sendable {
        let clock: TestClock
        let keyCount: Int
        private let lock = NSLock()
        private var pans: [String: String] = [:]
        private var next: [String: UInt16] = [:]
        private(set) var statuses: [String: TokenStatus] = [:]
        init(clock: TestClock, keyCount: Int) {
            self.clock = clock
            self.keyCount = keyCount
        }
        func checkEligibility(_ instrument: InstrumentData, walletID: String, deviceID: String) async throws(WalletError)
            -> EligibilityAcceptableData
        {
            lock.withLock { pans["e1"] = instrument.fundingPAN.digits }
            return EligibilityAcceptableData(
                eligibilityID: "e1", termsAndConditions: TermsAndConditions(id: "t1", text: "terms"),
                scheme: instrument.fundingPAN.digits.hasPrefix("4") ? .visa : .mastercard,
                validUntil: clock.now + 600)
        }
        func digitize(eligibilityID: String, acceptedTermsID: String) async throws(WalletError)
            -> PendingIdentityVerification
        { PendingIdentityVerification(digitizationID: "d1", maskedDestination: "***") }
        func verifyIdentity(digitizationID: String, code: String) async throws(WalletError) -> TokenizedCard {
            let pan = lock.withLock { pans["e1"] ?? "" }
            let scheme: CardProfile.Scheme = pan.hasPrefix("4") ? .visa : .mastercard
            let token = UUID().uuidString
            lock.withLock {
                pans[token] = pan
                next[token] = UInt16(keyCount + 1)
            }
            return TokenizedCard(
                tokenID: token, dpan: try! PAN(pan), expiry: try! ExpiryDate(year: 2030, month: 12),
                panSequenceNumber: "01", scheme: scheme, fundingLastFour: String(pan.suffix(4)),
                keys: keys(pan, 1...UInt16(keyCount)))
        }
        func keys(_ pan: String, _ atcs: ClosedRange<UInt16>) -> [LimitedUseKey] {
            var profile = pan.hasPrefix("4") ? try! CardProfile.visaTest : try! CardProfile.mastercardTest
            profile.pan = pan
            return try! profile.limitedUseKeys(atcs: atcs, validUntil: clock.now + 86_400)
        }
        func replenish(tokenID: String, count: Int) async throws(WalletError) -> [LimitedUseKey] {
            let (pan, start) = lock.withLock { (pans[tokenID] ?? "", next[tokenID] ?? 1) }
            lock.withLock { next[tokenID] = start + UInt16(count) }
            return keys(pan, start...(start + UInt16(count) - 1))
        }
        func setStatus(_ status: TokenStatus, tokenID: String) async throws(WalletError) {
            lock.withLock { statuses[tokenID] = status }
        }
    }
}
