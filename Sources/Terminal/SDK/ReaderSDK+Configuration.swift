public import Foundation
public import TapToPay

extension ReaderSDK {
    /// What the terminal runs with: the phone, its PSP and merchant server, its contactless interface, the clock.
    public struct Configuration: Sendable {
        /// The phone's id at the PSP (letters, digits, `-`, `_`); an external reader's id is derived from it.
        public var deviceID: String
        /// The PSP's API for the reader (account link, prepare).
        public var gateway: any GatewayTransport
        /// The merchant's server: reader tokens, authorization, PIN, refunds.
        public var backend: any MerchantBackend
        /// The phone's contactless interface for Tap to Pay; nil when the phone has none (Tap to Pay unavailable).
        public var tapToPayInterface: (any ContactlessInterface)?
        /// The PIN pad shown for an external reader (Tap to Pay's interface has its own).
        public var externalPINPad: @Sendable (PINEntryRequest) async -> PINEntry
        /// The device the app saved from an earlier ``ReaderSDK/connect(_:)``: connecting to it again skips the
        /// account-link check.
        public var savedDevice: Device?
        /// The current time (read times, the PIN window, token expiry).
        public var clock: @Sendable () -> Date
        /// The terminal's time zone.
        public var timeZone: TimeZone
        /// How many times a wrong PIN may be entered again within the PIN window.
        public var pinAttempts: Int
        /// How many taps a read offers.
        public var maximumTapAttempts: Int
        /// Whether the terminal stays connected through the background and configures the device again in the
        /// foreground; by default backgrounding disconnects and the app connects again (the saved device: quickly).
        public var reconnectsAutomatically: Bool

        /// Creates a configuration.
        public init(
            deviceID: String, gateway: any GatewayTransport, backend: any MerchantBackend,
            tapToPayInterface: (any ContactlessInterface)?,
            externalPINPad: @escaping @Sendable (PINEntryRequest) async -> PINEntry = { _ in .cancelled },
            savedDevice: Device? = nil, clock: @escaping @Sendable () -> Date = { Date() },
            timeZone: TimeZone = .current, pinAttempts: Int = 3, maximumTapAttempts: Int = 3,
            reconnectsAutomatically: Bool = false
        ) {
            self.deviceID = deviceID
            self.gateway = gateway
            self.backend = backend
            self.tapToPayInterface = tapToPayInterface
            self.externalPINPad = externalPINPad
            self.savedDevice = savedDevice
            self.clock = clock
            self.timeZone = timeZone
            self.pinAttempts = max(1, pinAttempts)
            self.maximumTapAttempts = maximumTapAttempts
            self.reconnectsAutomatically = reconnectsAutomatically
        }
    }

    /// How a connect went.
    public struct ConnectionReport: Sendable, Hashable {
        /// The device connected.
        public let device: Device
        /// Whether it was the saved device, reconnected without the account-link check (and without the PSP's
        /// first-prepare progress, which only a device's first prepare has).
        public let reusedSavedDevice: Bool
        /// How long the connect took.
        public let elapsed: Duration
    }
}
