import Foundation
import GatewayAPI

/// Readers in the gateway's own process, on the loopback with test cards (`tap serve --virtual-reader`): an admin
/// starts the merchant's from the point of sale, and the tap screen's card picker says which test card the
/// customer taps. So a demo needs nothing but `tap serve` and a browser.
///
/// The gateway knows nothing of the reader SDK: whoever turns this on (`tap serve`) gives the ``Launcher`` that runs
/// a reader, which asks ``nextCard(readerId:)`` whenever it waits for a card.
public actor VirtualReaders {
    /// Starts a reader as device `readerId` for `merchantId`, prepared with tokens from `token` (an admin's, a
    /// new one each call), running until the gateway stops; it takes its cards from `cards`.
    public typealias Launcher =
        @Sendable (
            _ readerId: String, _ merchantId: String, _ token: @escaping @Sendable () async throws -> String,
            _ cards: VirtualReaders
        ) async throws -> Void

    /// The test cards the picker offers: an id the launcher understands and the customer's words.
    public static let cards: [(id: String, label: String)] = [
        ("visa", "Visa card"), ("mastercard", "Mastercard"), ("wallet", "Phone wallet"),
        ("insufficientFunds", "Card without funds"), ("onlinePINRequired", "Card that asks for its PIN"),
        ("loyalty", "Phone with loyalty card"),
    ]

    private let launch: Launcher
    private let tokens: ReaderTokenAuthority
    private var started: Set<String> = []
    private var picks: [String: [String]] = [:]
    private var waiters: [String: CheckedContinuation<String, Never>] = [:]

    /// Readers started by `launch`, prepared with tokens of `tokens`.
    public init(launch: @escaping Launcher, tokens: ReaderTokenAuthority) {
        self.launch = launch
        self.tokens = tokens
    }

    /// The virtual reader's device id for a merchant.
    public static func readerId(merchantId: String) -> String { "virtual-\(merchantId.suffix(8))" }

    /// Starts the merchant's virtual reader (once), prepared with a token of admin `userId`; its device id.
    func start(merchantId: String, userId: String) async throws -> String {
        let readerId = Self.readerId(merchantId: merchantId)
        guard !started.contains(readerId) else { return readerId }
        started.insert(readerId)
        let tokens = self.tokens
        try await launch(
            readerId, merchantId,
            {
                try await tokens.issueReaderToken(
                    merchantId: merchantId, userId: userId, isAdmin: true, allowsRelinking: false, lifetime: 3_600
                ).token
            }, self)
        return readerId
    }

    /// The customer taps `card` (an id of ``cards``) on the reader.
    func tap(_ card: String, readerId: String) {
        guard Self.cards.contains(where: { $0.id == card }) else { return }
        if let waiter = waiters.removeValue(forKey: readerId) {
            waiter.resume(returning: card)
        } else {
            picks[readerId, default: []].append(card)
        }
    }

    /// The next card the customer taps on `readerId`; waits for the picker.
    public func nextCard(readerId: String) async -> String {
        if var queued = picks[readerId], !queued.isEmpty {
            let card = queued.removeFirst()
            picks[readerId] = queued
            return card
        }
        return await withCheckedContinuation { continuation in
            waiters[readerId]?.resume(returning: "")  // a reader waits once at a time; an older wait gives up
            waiters[readerId] = continuation
        }
    }
}
