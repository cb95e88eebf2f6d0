public import Foundation
import ValueAddedServices

/// A request to read loyalty passes (ProximityReader's `VASRequest`): the merchants whose passes the reader asks the
/// customer's wallet for, with Apple's VAS protocol. Pass it to ``PaymentCardReaderSession/readVAS(_:)`` or
/// ``PaymentCardReaderSession/readPaymentCard(_:vasRequest:stopOnVASResult:)``.
public final class VASRequest: Sendable {
    /// The merchants, in the order the reader asks for them.
    public let vasMerchants: [Merchant]
    /// The loyalty program's name, shown instead of an amount when only passes are read.
    public let localizedVASType: String

    /// Creates a request.
    public init(vasMerchants: [Merchant] = [], localizedVASType: String = "") {
        self.vasMerchants = vasMerchants
        self.localizedVASType = localizedVASType
    }

    /// A merchant offering a loyalty program.
    public struct Merchant: Sendable, Hashable {
        /// The pass type identifier the wallet matches passes against (`pass.com.example.coffee`).
        public let id: String
        /// The merchant's sign-up page, offered to customers without the pass.
        public let url: URL?
        /// Send only the sign-up URL, asking for no pass.
        public let shouldSendURLOnly: Bool
        /// The merchant's or program's name.
        public var localizedName: String

        /// Creates a merchant.
        public init(id: String, url: URL? = nil, shouldSendURLOnly: Bool = false, localizedName: String? = nil) {
            self.id = id
            self.url = url
            self.shouldSendURLOnly = shouldSendURLOnly
            self.localizedName = localizedName ?? id
        }
    }

    /// The reader's VAS step for this request in `mode`.
    /// - Throws: `invalidVASMerchants` (none, an empty or repeated id), `invalidVASRequestParameters` (a URL-only
    ///   merchant without a URL, a URL that is not https).
    func readerRequest(mode: VASMode) throws(PaymentCardReaderSession.ReadError) -> VASReader.Request {
        guard !vasMerchants.isEmpty else { throw .invalidVASMerchants("the request names no merchant") }
        guard Set(vasMerchants.map(\.id)).count == vasMerchants.count else {
            throw .invalidVASMerchants("a merchant id is repeated")
        }
        for merchant in vasMerchants {
            guard !merchant.id.isEmpty else { throw .invalidVASMerchants("a merchant id is empty") }
            if merchant.shouldSendURLOnly && merchant.url == nil {
                throw .invalidVASRequestParameters("merchant \(merchant.id) sends its URL only but has none")
            }
            if let url = merchant.url, url.scheme?.lowercased() != "https" {
                throw .invalidVASRequestParameters("merchant \(merchant.id)'s URL is not https")
            }
        }
        return VASReader.Request(
            merchants: vasMerchants.map {
                VASReader.Merchant(passTypeIdentifier: $0.id, signupURL: $0.url, urlOnly: $0.shouldSendURLOnly)
            }, mode: mode)
    }
}
