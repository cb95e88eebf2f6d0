/// The wallet's capabilities in its SELECT answer (9F23, four bytes; only the last is used): what this tap can give.
public struct VASWalletCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Can send pass messages in clear (never, here).
    public static let plaintext = VASWalletCapabilities(rawValue: 0x01)
    /// Sends pass messages encrypted.
    public static let encrypted = VASWalletCapabilities(rawValue: 0x02)
    /// The reader may skip loyalty.
    public static let canSkipVAS = VASWalletCapabilities(rawValue: 0x04)
    /// Has passes to give.
    public static let vas = VASWalletCapabilities(rawValue: 0x08)
    /// The reader may skip payment.
    public static let canSkipPayment = VASWalletCapabilities(rawValue: 0x10)
    /// A payment card is ready in the same tap.
    public static let payment = VASWalletCapabilities(rawValue: 0x20)

    /// The four bytes of 9F23.
    public var bytes: [UInt8] { [0, 0, 0, rawValue] }

    /// 9F23's value read back; nil unless four bytes.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 4, let last = Array(bytes).last else { return nil }
        rawValue = last
    }
}

/// The reader's capabilities in GET VAS DATA (9F26, four bytes): byte 1 says VAS is supported (bit 8) and whether
/// the customer must authenticate (bit 7); byte 3 carries the mode (bits 2-1) and whether more GET VAS DATA follow
/// in this tap (bit 8).
public struct VASTerminalCapabilities: Sendable, Hashable {
    /// How loyalty and payment combine in this tap.
    public var mode: VASMode
    /// Whether the reader asks the wallet to authenticate the customer before releasing passes.
    public var requiresAuthentication: Bool
    /// Whether another GET VAS DATA follows this one in the tap.
    public var morePassesFollow: Bool

    public init(mode: VASMode, requiresAuthentication: Bool = false, morePassesFollow: Bool = false) {
        self.mode = mode
        self.requiresAuthentication = requiresAuthentication
        self.morePassesFollow = morePassesFollow
    }

    /// The four bytes of 9F26.
    public var bytes: [UInt8] {
        [0x00, 0x80 | (requiresAuthentication ? 0x40 : 0), 0x00, mode.rawValue | (morePassesFollow ? 0x80 : 0)]
    }

    /// 9F26's value read back; nil unless four bytes with VAS supported.
    public init?(bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        guard bytes.count == 4, bytes[1] & 0x80 != 0, let mode = VASMode(rawValue: bytes[3] & 0x03) else {
            return nil
        }
        self.mode = mode
        requiresAuthentication = bytes[1] & 0x40 != 0
        morePassesFollow = bytes[3] & 0x80 != 0
    }
}
