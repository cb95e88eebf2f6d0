import CardEmulator
import EMV
import Foundation
import ReaderKernel
import SmartCard

/// One purchase on the in-process loopback: a shipped test card, personalised and held by a wallet, tapped on a
/// reader running the EMV kernel with the default configuration; then the issuer checks the ARQC.
struct DemoPurchase {
    var card: DemoCard
    var amount: Amount
    /// Whether the wallet verified the cardholder on the phone before the tap (double-click and Face ID).
    var cardholderVerifiedOnPhone: Bool

    func run() async throws -> TransactionReport {
        let profile = try card.profile()
        var emulated = try profile.personalize()
        if cardholderVerifiedOnPhone { emulated.authenticateCardholder() }
        let keysBefore = emulated.remainingKeyCount
        let configuration = ReaderConfiguration.default(caPublicKeys: try CardProfile.testCAPublicKeys)
        let channel = LoopbackChannel(applet: emulated)
        let result = await ReaderKernel(configuration: configuration)
            .perform(TransactionRequest(amount: amount), over: channel)
        var issuer: IssuerCheck?
        if let authorization = result.outcome.authorizationData, authorization.mode == .emv {
            issuer = try IssuerCheck(profile: profile, authorization: authorization)
        }
        return TransactionReport(
            card: profile.name, setting: .loopback, amount: amount,
            cardholderVerifiedOnPhone: cardholderVerifiedOnPhone,
            paymentKeys: (keysBefore, await channel.applet.remainingKeyCount), result: result, issuer: issuer)
    }
}
