/// A digitization waiting for the cardholder's one-time code (Thales: the `pendingIDV` state).
public struct PendingIdentityVerification: Sendable, Hashable {
    /// The issuer's identifier of the digitization.
    public var digitizationID: String
    /// Where the code went, masked (e.g. `+49 *** ***12`), for the screen.
    public var maskedDestination: String

    /// Creates a pending verification.
    public init(digitizationID: String, maskedDestination: String) {
        self.digitizationID = digitizationID
        self.maskedDestination = maskedDestination
    }
}
