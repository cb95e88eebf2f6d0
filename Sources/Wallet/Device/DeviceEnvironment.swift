/// What the wallet asks of the phone: NFC permission, contactless eligibility, the integrity check, the
/// cardholder's authentication and the system's emulation sheet.
///
/// These are the operating system's and the human's answers; tests set them, an app wires them to the platform.
public struct DeviceEnvironment: Sendable {
    /// Whether the user allowed the app to use NFC (host card emulation).
    public var nfcPermissionGranted: Bool
    /// Whether the device may make contactless payments at all (region, hardware, OS).
    public var isEligibleForContactless: Bool
    /// The integrity check: nil when the device is safe, else why not (never card data).
    public var integrityCheck: @Sendable () -> String?
    /// Asks the cardholder to authenticate, showing `reason`.
    public var authenticateUser: @Sendable (_ reason: String) async -> UserAuthenticationResult
    /// Puts up, updates or takes down the system's card emulation sheet (Core NFC's modal UI), as a
    /// ``ContactlessPaymentSession`` asks; an app without one ignores it.
    public var updateEmulationSheet: @Sendable (EmulationSheetUpdate) -> Void

    /// Creates an environment.
    public init(
        nfcPermissionGranted: Bool = true, isEligibleForContactless: Bool = true,
        integrityCheck: @escaping @Sendable () -> String? = { nil },
        authenticateUser: @escaping @Sendable (_ reason: String) async -> UserAuthenticationResult,
        updateEmulationSheet: @escaping @Sendable (EmulationSheetUpdate) -> Void = { _ in }
    ) {
        self.nfcPermissionGranted = nfcPermissionGranted
        self.isEligibleForContactless = isEligibleForContactless
        self.integrityCheck = integrityCheck
        self.authenticateUser = authenticateUser
        self.updateEmulationSheet = updateEmulationSheet
    }

    /// A safe, eligible device whose cardholder always authenticates: demos and the command line.
    public static let alwaysAuthenticated = DeviceEnvironment(authenticateUser: { _ in .success })
}
