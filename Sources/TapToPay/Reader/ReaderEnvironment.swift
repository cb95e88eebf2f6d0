public import Foundation

/// What the operating system gives ProximityReader and a Linux process must say: the device's id, the PSP to talk
/// to, the contactless interface (none: the reader is not supported), the clock and the time zone.
public struct ReaderEnvironment: Sendable {
    /// The device's id at the PSP (the phone's identifier; letters, digits, `-` and `_`).
    public var deviceID: String
    /// The PSP's API; nil: the PSP that issued the reader token (its `iss` claim, the gateway's base URL), as
    /// ProximityReader finds it from the token.
    public var gateway: (any GatewayTransport)?
    /// The contactless interface; nil when the device has none.
    public var interface: (any ContactlessInterface)?
    /// The current time: the read's time, the 55 s PIN window, the session's expiry.
    public var clock: @Sendable () -> Date
    /// The terminal's time zone, for the transaction date.
    public var timeZone: TimeZone
    /// How many taps a read offers before it fails with `cardReadFailed` (the first and the retries).
    public var maximumTapAttempts: Int

    /// Creates an environment.
    public init(
        deviceID: String, gateway: (any GatewayTransport)?, interface: (any ContactlessInterface)?,
        clock: @escaping @Sendable () -> Date = { Date() }, timeZone: TimeZone = .current, maximumTapAttempts: Int = 3
    ) {
        self.deviceID = deviceID
        self.gateway = gateway
        self.interface = interface
        self.clock = clock
        self.timeZone = timeZone
        self.maximumTapAttempts = max(1, maximumTapAttempts)
    }
}
