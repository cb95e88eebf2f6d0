public import CardEmulator
import EMV
import Gateway
public import Issuer
import _SQLStorage
public import SmartCard
public import TestMode

extension TestGateway {
    /// A Visa test card of `behaviour` whose CVM rules ask for online PIN above the reader's CVM limit: no consumer
    /// device CVM, CTQ "online PIN required" (byte 1 bit 8); its keys valid from now and reading the clock.
    public func onlinePINCard(_ behaviour: TestCard.Behaviour) throws -> LoopbackChannel<EmulatedCard> {
        guard let card = TestCards.card(behaviour, .visa) else {
            throw RunningGatewayError(message: "no Visa test card \(behaviour)")
        }
        var profile = try CardProfile.visaTest
        profile.pan = card.pan
        profile.consumerDeviceCVM = .init(supported: false)
        profile.cardTransactionQualifiers = HexBytes([0xA0, 0x00])
        return LoopbackChannel(
            applet: try profile.certified().personalize(
                on: clock.now,
                environment: CardEnvironment(now: clock.function, randomBytes: CardEnvironment.system.randomBytes)))
    }

    /// The issuer's available balance of `card`.
    public func balance(_ card: TestCard) async throws -> Int? {
        try await SQLIssuerRepository(database: application.database)
            .account(try (application.embeddedIssuerKeys ?? IssuerKeys.test).keyedHash(of: try PAN(card.pan)))?
            .availableBalance
    }
}
