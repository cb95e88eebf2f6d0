import CardEmulator
import EMV
import Foundation

extension DigitalCardRecord {
    /// The card profile of this token: the scheme's bundled test profile as a template, digitized with the DPAN,
    /// expiry and PSN — issuer master keys withheld, and no offline data authentication (its ICC certificate would
    /// need the issuer's private key, which a wallet never holds): an online-only token.
    func profile() throws -> CardProfile {
        let template = scheme == .visa ? try CardProfile.visaTest : try CardProfile.mastercardTest
        return try template.digitized(
            pan: try PAN(dpan), expiry: try ExpiryDate(year: expiryYear, month: expiryMonth),
            panSequenceNumber: panSequenceNumber)
    }

    private var expiryYear: Int { Int(expiry.prefix(4)) ?? 0 }
    private var expiryMonth: Int { Int(expiry.suffix(2)) ?? 0 }

    /// The token's card applet, holding its unspent payment keys and its wallet transaction data.
    func makeCard(environment: CardEnvironment) throws(CardEmulatorError) -> EmulatedCard {
        let profile: CardProfile
        do {
            profile = try self.profile()
        } catch let error as CardEmulatorError {
            throw error
        } catch {
            throw CardEmulatorError(code: .missingData, message: "the token's data does not make a card profile")
        }
        var card = try profile.personalize(
            limitedUseKeys: usableKeys(at: environment.now()), environment: environment)
        if let walletTransactionData { try card.setWalletTransactionData(walletTransactionData) }
        return card
    }
}
