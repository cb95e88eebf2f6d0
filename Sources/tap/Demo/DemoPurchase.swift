import CardEmulator
import EMV
import Foundation
import ReaderKernel
import SmartCard

/// One purchase on the in-process loopback: a shipped test card, personalised and held by a wallet, tapped on a
/// reader running the EMV kernel with the default configuration; the issuer's keys check the ARQC; then the reader
/// seals the read to the PSP and a gateway in this process authorises it with the issuer host over ISO 8583.
struct DemoPurchase {
    var card: DemoCard
    var amount: Amount
    /// Whether the wallet verified the cardholder on the phone before the tap (double-click and Face ID).
    var cardholderVerifiedOnPhone: Bool
    /// Whether an online request goes on to the gateway (and the issuer host behind it).
    var throughGateway: Bool

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
        var report = TransactionReport(
            card: profile.name, setting: .loopback, amount: amount,
            cardholderVerifiedOnPhone: cardholderVerifiedOnPhone,
            paymentKeys: (keysBefore, await channel.applet.remainingKeyCount), result: result, issuer: issuer)
        if throughGateway, result.outcome.status == .onlineRequest, let authorization = result.outcome.authorizationData {
            report.gateway = try await GatewayAuthorization.authorize(authorization, amount: amount)
        }
        return report
    }
}
