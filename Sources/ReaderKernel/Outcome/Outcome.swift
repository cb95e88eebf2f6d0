public import EMV

/// How a transaction ended (EMV Contactless Book A, 6.2): the status, why, what to show, the CVM to perform and, when
/// the card produced a cryptogram, the data for authorisation.
public struct Outcome: Sendable, Hashable, CustomStringConvertible {
    /// The outcome's status (Book A, table 6.1).
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Send ``Outcome/authorizationData`` to the issuer.
        case onlineRequest
        /// Approved offline.
        case approved
        /// Declined offline.
        case declined
        /// Present the card again (after the phone prompt, or after a communication error).
        case tryAgain
        /// Try the next candidate application (handled by the entry point; reported in transcripts).
        case selectNext
        /// Use the contact chip or mag stripe instead.
        case tryAnotherInterface
        /// Stop: this card cannot complete a contactless transaction here.
        case endApplication
    }

    /// The status.
    public var status: Status
    /// Why.
    public var reason: OutcomeReason
    /// What to show the cardholder, if anything.
    public var userInterface: UserInterfaceRequest?
    /// The cardholder verification to complete the transaction with.
    public var cardholderVerification: CardholderVerification
    /// The kernel that produced the outcome; nil when the entry point ended before activating one.
    public var kernel: Kernel?
    /// For an online request (and offline approvals and declines, for the record): what a PSP needs.
    public var authorizationData: CardAuthorizationData?

    /// Creates an outcome.
    public init(
        status: Status, reason: OutcomeReason, userInterface: UserInterfaceRequest? = nil,
        cardholderVerification: CardholderVerification = .notApplicable, kernel: Kernel? = nil,
        authorizationData: CardAuthorizationData? = nil
    ) {
        self.status = status
        self.reason = reason
        self.userInterface = userInterface
        self.cardholderVerification = cardholderVerification
        self.kernel = kernel
        self.authorizationData = authorizationData
    }

    /// `onlineRequest: the card requests online authorisation (ARQC); CVM no CVM`, with masked card data only.
    public var description: String {
        var text = "\(status.rawValue): \(reason)"
        if cardholderVerification != .notApplicable { text += "; CVM \(cardholderVerification)" }
        if let userInterface { text += "; UI \(userInterface)" }
        return text
    }
}
