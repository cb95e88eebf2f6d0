/// What the device's cardholder authentication (Face ID, Touch ID, passcode) answered.
public enum UserAuthenticationResult: Sendable, Hashable {
    /// The cardholder is verified.
    case success
    /// The biometric or passcode check failed.
    case failed
    /// The cardholder dismissed the prompt.
    case cancelled
    /// No biometric is enrolled.
    case biometricNotEnrolled
    /// The authentication key was invalidated (passcode turned off or reset).
    case keyInvalidated
}
