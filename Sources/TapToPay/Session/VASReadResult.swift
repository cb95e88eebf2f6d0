import EMV
public import Foundation
import ValueAddedServices

/// The loyalty passes one tap read (ProximityReader's `VASReadResult`): one entry per merchant asked, each with the
/// wallet's status and, on success, the pass's message encrypted to the merchant's key, which only the merchant's
/// server opens (`ValueAddedServices.VASDecryptor`).
public struct VASReadResult: Identifiable, Sendable, Hashable {
    /// The read's id.
    public let id: String
    /// One entry per merchant of the request, in its order.
    public let entries: [ReadEntry]

    /// Creates a result.
    public init(id: String, entries: [ReadEntry]) {
        self.id = id
        self.entries = entries
    }

    /// What the wallet answered for one merchant.
    public struct ReadEntry: Identifiable, Sendable, Hashable {
        /// The merchant's id (the pass type identifier) as the request named it.
        public let id: String
        /// The encrypted pass message (the VAS cryptogram) when ``status`` is ``Status/success``.
        public let customerVASData: Data?
        /// The wallet's answer.
        public let status: Status

        /// Creates an entry.
        public init(id: String, customerVASData: Data?, status: Status) {
            self.id = id
            self.customerVASData = customerVASData
            self.status = status
        }

        /// The wallet's status word for the merchant (Core NFC's `NFCVASResponse.ErrorCode` names them).
        public enum Status: Int, Sendable, Hashable, CaseIterable {
            /// The pass's message came (9000).
            case success = 0x9000
            /// The customer has no pass for the merchant (6A83).
            case dataNotFound = 0x6A83
            /// The pass is there but was not released (6287).
            case dataNotActivated = 0x6287
            /// The wallet did not know the command's parameters (6B00).
            case wrongParameters = 0x6B00
            /// The command's length was wrong (6700).
            case wrongLCField = 0x6700
            /// The customer must authenticate on the phone first (6984).
            case userInterventionRequired = 0x6984
            /// The request's data was refused (6A80), or a success carried no cryptogram.
            case incorrectData = 0x6A80
            /// Any other status word.
            case unknown = 0
        }
    }

    /// The result of a VAS step; nil when the card had no VAS application.
    init?(_ outcome: VASReader.Outcome, id: String) {
        guard outcome.wallet != nil else { return nil }
        self.init(
            id: id,
            entries: outcome.entries.map { entry in
                ReadEntry(
                    id: entry.passTypeIdentifier, customerVASData: entry.cryptogram.map { Data($0) },
                    status: ReadEntry.Status(rawValue: Int(entry.statusWord.rawValue)) ?? .unknown)
            })
    }
}
