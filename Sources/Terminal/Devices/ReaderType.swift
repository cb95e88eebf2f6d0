/// A kind of card reader the terminal can use (ECPSdk's reader types).
public enum ReaderType: String, Sendable, Hashable, Codable, CaseIterable {
    /// The phone itself: Tap to Pay, through ``TapToPay/PaymentCardReader`` on the device's contactless interface.
    case tapToPay
    /// An external reader: a PC/SC contactless reader (the Linux counterpart of a Bluetooth card reader).
    case external
}
