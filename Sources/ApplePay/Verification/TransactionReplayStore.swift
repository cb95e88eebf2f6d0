public import Foundation

/// Remembers the transactionIds of accepted tokens so that a token is accepted once.
///
/// A token is only accepted within the signing-time window, so an id need only be remembered until its token would
/// be refused as expired anyway: ``record(transactionId:expiresAt:)`` says until when. Implementations must make the
/// check and the insertion one atomic step, so that two concurrent submissions of one token cannot both succeed.
/// ``InMemoryTransactionReplayStore`` serves one process; a gateway keeps the ids in its database.
public protocol TransactionReplayStore: Sendable {
    /// Records `transactionId` as used until `expiresAt`.
    ///
    /// - Throws: ``ApplePayError/Code/tokenReplayed`` when the id was recorded before and has not expired.
    func record(transactionId: String, expiresAt: Date) async throws
}
