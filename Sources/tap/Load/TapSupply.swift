import ContactlessTesting
import EMV
import Foundation
import GatewayAPI
import Issuer
import NIOCore

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

    /// `counts[w]` request bodies (`CreatePaymentRequest` JSON) for worker `w`, in tap order; the cards tap
    /// concurrently.
    func bodies(counts: [Int]) async throws -> [[ByteBuffer]] {
        let sealer = try target.provisioning.cardDataKey.sealer()
        let merchantId = target.merchantId, deviceId = target.deviceId
        return try await withThrowingTaskGroup(of: (Int, [ByteBuffer]).self) { group in
            for (worker, tapper) in tappers.enumerated() {
                let count = worker < counts.count ? counts[worker] : 0
                group.addTask {
                    let encoder = JSONEncoder.gatewayAPI
                    var bodies: [ByteBuffer] = []
                    bodies.reserveCapacity(count)
                    for _ in 0..<count {
                        let sealed = try await tapper.sealedTap(
                            amount: Self.amount, merchantId: merchantId, deviceId: deviceId, recipient: sealer)
                        let request = CreatePaymentRequest(
                            cardData: sealed, amount: Self.amount.minorUnits, currency: Self.amount.currency.alphabeticCode)
                        bodies.append(ByteBuffer(bytes: Array(try encoder.encode(request))))
                    }
                    return (worker, bodies)
                }
            }
            var all = [[ByteBuffer]](repeating: [], count: tappers.count)
            for try await (worker, bodies) in group { all[worker] = bodies }
            return all
        }
    }
}
