import EMV
import Foundation
import GatewayAPI
import Issuer
import NIOCore
import TestMode

/// The load's cards: one load-test card (``TestCards/loadTestCards``) per worker, each in front of its own reader,
/// so every worker's ATCs reach the issuer in order. Taps are made and sealed before a phase (not while it is
/// measured) and are spent within the gateway's 60 s window.
struct TapSupply: Sendable {
    /// What one payment costs: a cent, so each card's 1,000.00 EUR lasts 100,000 authorizations.
    static let amount = Amount(minorUnits: 1, currency: .eur)

    let tappers: [TestCardTapper]
    let target: EmbeddedGateway

    /// `workers` cards (at most as many as there are load-test cards), each personalised with `keysPerCard`
    /// limited-use keys (one per tap).
    init(workers: Int, keysPerCard: Int, target: EmbeddedGateway) throws {
        tappers = try TestCards.loadTestCards.prefix(workers).map { card in
            try TestCardTapper(pan: card.pan, scheme: card.scheme == .visa ? .visa : .mastercard, keyCount: keysPerCard)
        }
        self.target = target
    }

    /// `counts[w]` request bodies (`CreatePaymentRequest` JSON) for worker `w`, in tap order.
    ///
    /// Made round by round, a tap of every worker's card (concurrently) per round: a read id carries its tap's time
    /// (UUIDv7), and a reader authorizes right after its tap, so the gateway sees read ids in about the order they
    /// were made. Made card by card instead, the workers' taps came from 64 separate stretches of time and every
    /// authorization inserted its read id into a different page of the two indexes on it, which a real reader's
    /// payments do not.
    func bodies(counts: [Int]) async throws -> [[ByteBuffer]] {
        let sealer = try target.provisioning.cardDataKey.sealer()
        let merchantId = target.merchantId, deviceId = target.deviceId
        let encoder = JSONEncoder.gatewayAPI
        var all = [[ByteBuffer]](repeating: [], count: tappers.count)
        for worker in all.indices where worker < counts.count { all[worker].reserveCapacity(counts[worker]) }
        for round in 0..<(counts.max() ?? 0) {
            try await withThrowingTaskGroup(of: (Int, ByteBuffer).self) { group in
                for (worker, tapper) in tappers.enumerated() where worker < counts.count && round < counts[worker] {
                    group.addTask {
                        let sealed = try await tapper.sealedTap(
                            amount: Self.amount, merchantId: merchantId, deviceId: deviceId, recipient: sealer)
                        let request = CreatePaymentRequest(
                            cardData: sealed, amount: Self.amount.minorUnits,
                            currency: Self.amount.currency.alphabeticCode)
                        return (worker, ByteBuffer(bytes: Array(try encoder.encode(request))))
                    }
                }
                for try await (worker, body) in group { all[worker].append(body) }
            }
        }
        return all
    }
}
