/// A card reader found by ``ReaderSDK/discoverDevices()`` (ECPSdk's `ECPDevice`).
///
/// `Codable`, so an app can keep the device it last connected and hand it back as
/// ``ReaderSDK/Configuration/savedDevice`` for a faster reconnect.
public struct Device: Sendable, Hashable, Codable, Identifiable, CustomStringConvertible {
    /// The id of the Tap to Pay device, the phone itself.
    public static let tapToPayID = "iOS Tap To Pay"

    /// The device's id: ``tapToPayID``, or the PC/SC reader name of an external reader.
    public let id: String
    /// Tap to Pay or external.
    public let readerType: ReaderType
    /// Who made it.
    public let manufacturer: String
    /// What it is.
    public let model: String
    /// Battery percentage 0…100, when the device reports one (none here do).
    public let batteryPercentage: Int?

    /// Creates a device description.
    public init(id: String, readerType: ReaderType, manufacturer: String, model: String, batteryPercentage: Int? = nil)
    {
        self.id = id
        self.readerType = readerType
        self.manufacturer = manufacturer
        self.model = model
        self.batteryPercentage = batteryPercentage
    }

    /// The phone's own contactless reader.
    public static let tapToPay = Device(
        id: tapToPayID, readerType: .tapToPay, manufacturer: "Contactless", model: "Tap to Pay")

    /// An external PC/SC reader named `readerName`.
    public static func external(readerName: String) -> Device {
        Device(id: readerName, readerType: .external, manufacturer: "PC/SC", model: readerName)
    }

    /// `Device(iOS Tap To Pay, tapToPay)`.
    public var description: String { "Device(\(id), \(readerType.rawValue))" }
}
