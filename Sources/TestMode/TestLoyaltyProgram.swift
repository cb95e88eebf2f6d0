public import CardEmulator
public import Crypto
public import Foundation
public import SmartCard
public import ValueAddedServices

/// A test loyalty program for demos, tests and benchmarks: a coffee shop's pass type with a fresh merchant key, a
/// member's pass encrypted to it, and the customer's phone carrying that pass beside a test card.
///
/// ```swift
/// let program = try TestLoyaltyProgram()
/// let phone = await program.phone(carrying: try gateway.card(.approve), clock: gateway.clock.function)
/// await interface.tap(phone)
/// let (payment, passes) = try await session.readPaymentCard(request, vasRequest: program.request, stopOnVASResult: false)
/// ```
public struct TestLoyaltyProgram: Sendable {
    /// The program's pass type.
    public static let passTypeIdentifier = "pass.dev.contactless.test.coffee"

    /// The merchant's VAS key: its public half is in the pass, its private half on the merchant's server.
    public let merchantKey: P256.KeyAgreement.PrivateKey
    /// The member's pass.
    public let pass: VASPass

    /// A program with a fresh key and a pass whose message is `memberID`.
    public init(memberID: String = "member-1001") throws {
        merchantKey = P256.KeyAgreement.PrivateKey()
        pass = try VASPass(
            passTypeIdentifier: Self.passTypeIdentifier, serialNumber: memberID, message: memberID,
            encryptionKey: merchantKey.publicKey, organizationName: "Test Coffee")
    }

    /// What the merchant's server opens cryptograms with.
    public var decryptor: VASDecryptor { VASDecryptor(keys: [merchantKey]) }

    /// The customer's phone in the field: the pass and `card`'s applet (as it is now), the wallet's timestamps read
    /// from `clock`; the customer authenticated, as for a payment.
    public func phone(
        carrying card: LoopbackChannel<EmulatedCard>, clock: @escaping @Sendable () -> Date = { Date() }
    ) async -> LoopbackChannel<PassAndPaymentApplet<EmulatedCard>> {
        let vas = VASApplet(
            passes: [pass], paymentReady: true, customerAuthenticated: true,
            environment: CardEnvironment(now: clock, randomBytes: CardEnvironment.system.randomBytes))
        return LoopbackChannel(applet: PassAndPaymentApplet(vas: vas, payment: await card.applet))
    }
}
