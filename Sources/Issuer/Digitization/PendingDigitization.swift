public import Foundation

/// A digitization waiting for the cardholder's one-time code.
public struct PendingDigitization: Sendable, Hashable {
    /// The digitization's id, for ``DigitizationService/verifyIdentity(digitizationID:code:)``.
    public let digitizationID: String
    /// Where the code went, masked for display (`SMS to •••• 0123`).
    public let maskedDestination: String
    /// After this instant the code no longer works.
    public let codeValidUntil: Date

    /// Creates a pending digitization.
    public init(digitizationID: String, maskedDestination: String, codeValidUntil: Date) {
        self.digitizationID = digitizationID
        self.maskedDestination = maskedDestination
        self.codeValidUntil = codeValidUntil
    }
}
