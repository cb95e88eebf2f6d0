public import CardEmulator
public import EMV
public import Foundation
public import GatewayAPI
public import ReaderKernel
public import SmartCard

/// A test card in front of a reader: one personalised applet on the loopback and the reader kernel, so each tap
/// spends the card's next ATC like a real card would. For gateway tests, demos and the load generator.
///
/// ```swift
/// let tapper = try TestCardTapper(pan: "4761739001010119", scheme: .visa)
/// let data = try await tapper.tap(amount: Amount(minorUnits: 1_000, currency: .eur))
/// ```
public actor TestCardTapper {
    /// The card's scheme, which picks the shipped test profile.
    public enum Scheme: String, Sendable, CaseIterable {
        /// The Visa qVSDC test profile.
        case visa
        /// The Mastercard M/Chip test profile.
        case mastercard
    }

    private let channel: LoopbackChannel<EmulatedCard>
    private let kernel: ReaderKernel

    /// The shipped profile of `scheme` with `pan` (its ICC certificate re-signed by the test CA), personalised with
    /// `keyCount` limited-use keys from `personalisedOn`; the kernel and the card read `clock`.
    public init(
        pan: String, scheme: Scheme, keyCount: Int = 32, personalisedOn: Date = Date(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        try self.init(
            channel: Self.card(
                pan: pan, scheme: scheme, keyCount: keyCount, personalisedOn: personalisedOn, clock: clock),
            clock: clock)
    }

    /// Any card applet already on the loopback (a wallet's digitized card, say) in front of the reader kernel,
    /// which reads `clock`.
    public init(channel: LoopbackChannel<EmulatedCard>, clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.channel = channel
        kernel = ReaderKernel(
            configuration: .default(caPublicKeys: try CardProfile.testCAPublicKeys), clock: clock,
            timeZone: TimeZone(identifier: "UTC") ?? .current)
    }

    /// The card alone, on a loopback channel, for a reader of one's own (a reader SDK's contactless interface):
    /// the shipped profile of `scheme` with `pan`, personalised with `keyCount` limited-use keys from
    /// `personalisedOn`, reading `clock`.
    public static func card(
        pan: String, scheme: Scheme, keyCount: Int = 32, personalisedOn: Date = Date(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws -> LoopbackChannel<EmulatedCard> {
        var profile = scheme == .visa ? try CardProfile.visaTest : try CardProfile.mastercardTest
        profile.pan = pan
        profile.limitedUseKeys.count = keyCount
        let applet = try profile.certified().personalize(
            on: personalisedOn,
            environment: CardEnvironment(now: clock, randomBytes: CardEnvironment.system.randomBytes))
        return LoopbackChannel(applet: applet)
    }

    /// Taps the card for `amount` (a purchase by default); the kernel's authorisation data.
    /// - Throws: ``TestCardTapperError`` when the kernel's outcome is not an online request.
    public func tap(amount: Amount, type: TransactionType = .purchase) async throws -> CardAuthorizationData {
        let result = await kernel.perform(TransactionRequest(amount: amount, type: type), over: channel)
        guard result.outcome.status == .onlineRequest, let data = result.outcome.authorizationData else {
            throw TestCardTapperError(outcome: "\(result.outcome.status)")
        }
        return data
    }

    /// Taps the card and seals the read for the PSP as a reader SDK does.
    public func sealedTap(
        amount: Amount, type: TransactionType = .purchase, merchantId: String, deviceId: String,
        recipient: CardDataSealer, createdAt: Date = Date()
    ) async throws -> SealedCardData {
        let data = try await tap(amount: amount, type: type)
        return try recipient.seal(
            CardDataPayload(
                deviceId: deviceId, merchantId: merchantId, createdAt: createdAt,
                authorization: data))
    }
}

/// A test tap that did not end in an online request.
public struct TestCardTapperError: Error, CustomStringConvertible {
    /// The kernel's outcome.
    public let outcome: String
    /// What happened.
    public var description: String { "the tap ended in \(outcome), not an online request" }
}
