import CardEmulator
import EMV
import Foundation
import ReaderKernel
import SmartCard

/// A personalised card and a configured reader with a pinned clock and unpredictable number, so every run is the
/// same transaction.
struct Purchase: Sendable {
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    let profile: CardProfile
    let card: EmulatedCard
    let kernel: ReaderKernel
    let request: TransactionRequest
    /// The result of the first run, checked in setup.
    let reference: TransactionResult

    init(_ which: BenchmarkCard) async throws {
        profile = try which.profile()
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        var card = try profile.personalize(on: date)
        // The wallet verified the cardholder, as a phone wallet does before the tap.
        card.authenticateCardholder()
        self.card = card
        kernel = ReaderKernel(
            configuration: .default(caPublicKeys: try CardProfile.testCAPublicKeys), clock: { date },
            timeZone: TimeZone(identifier: "UTC")!, unpredictableNumbers: { [0x12, 0x34, 0x56, 0x78] })
        request = TransactionRequest(amount: Amount(minorUnits: 1234, currency: .eur))
        let result = await kernel.perform(request, over: LoopbackChannel(applet: card))
        let expectedODA: OfflineDataAuthentication = which == .visa ? .succeeded(.fDDA) : .succeeded(.cda)
        guard result.outcome.status == .onlineRequest, result.events.contains(.offlineDataAuthentication(expectedODA))
        else { throw SetupError(description: "the reference purchase did not go online with ODA: \(result.outcome)") }
        reference = result
    }

    /// One tap of a fresh copy of the card.
    func run() async throws -> TransactionResult {
        let result = await kernel.perform(request, over: LoopbackChannel(applet: card))
        guard result.outcome.status == .onlineRequest else {
            throw SetupError(description: "purchase ended \(result.outcome)")
        }
        return result
    }
}
