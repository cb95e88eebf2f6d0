/// What the wallet asks of the phone: NFC permission, contactless eligibility, the integrity check and the
/// cardholder's authentication.
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

    /// Creates an environment.
    public init(
        nfcPermissionGranted: Bool = true, isEligibleForContactless: Bool = true,
        integrityCheck: @escaping @Sendable () -> String? = { nil },
        authenticateUser: @escaping @Sendable (_ reason: String) async -> UserAuthenticationResult
    ) {
        self.nfcPermissionGranted = nfcPermissionGranted
        self.isEligibleForContactless = isEligibleForContactless
        self.integrityCheck = integrityCheck
        self.authenticateUser = authenticateUser
    }

    /// A safe, eligible device whose cardholder always authenticates: demos and the command line.
    public static let alwaysAuthenticated = DeviceEnvironment(authenticateUser: { _ in .success })
}
