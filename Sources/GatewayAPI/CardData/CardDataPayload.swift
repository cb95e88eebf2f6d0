public import EMV
public import Foundation

/// What a reader seals to the PSP after a tap: who read the card, where, when, and the authorisation data.
///
/// The identifiers are also the sealed envelope's authenticated data (see ``SealedCardData``), so they cannot be moved
/// onto another envelope. Never shows the card data: `description` and `dump` give the masked PAN at most.
public struct CardDataPayload: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The read's unique id: the gateway opens each read once.
    public let readId: UUID
    /// The reader device (the merchant's phone) that read the card.
    public let deviceId: String
    /// The merchant the reader belongs to.
    public let merchantId: String
    /// When the reader read the card; the gateway opens the data only within 60 s of it.
    public let createdAt: Date
    /// The card data for the authorisation.
    public let authorization: CardAuthorizationData
    /// The online PIN the reader captured with the read because the card's CVM asked for it: ISO 9564 format 4
    /// under the device's PIN key (16 bytes); nil without one.
    public let pinBlock: [UInt8]?

    /// Creates a payload.
    public init(
        readId: UUID = .timeOrdered(), deviceId: String, merchantId: String, createdAt: Date,
        authorization: CardAuthorizationData, pinBlock: [UInt8]? = nil
    ) {
        self.readId = readId
        self.deviceId = deviceId
        self.merchantId = merchantId
        self.createdAt = createdAt
        self.authorization = authorization
        self.pinBlock = pinBlock
    }

    /// `CardDataPayload(read …, merchant …, device …, CardAuthorizationData(emv, PAN 476173******0119, …))`.
    public var description: String {
        "CardDataPayload(read \(readId.uuidString), merchant \(merchantId), device \(deviceId), \(authorization))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Reflection shows the identifiers and the masked authorisation data only.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "readId": readId, "deviceId": deviceId, "merchantId": merchantId, "createdAt": createdAt,
                "authorization": authorization.description,
            ], displayStyle: .struct)
    }
}
