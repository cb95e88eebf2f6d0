public import EMV

/// Why a transaction ended the way it did: one case per rule of Book B, C-2 or C-3 that decides an outcome. Carries
/// status words, tags and error codes, never card data.
public enum OutcomeReason: Sendable, Hashable, CustomStringConvertible {
    /// The amount is at or over every eligible kernel's contactless transaction limit (Book B, 3.1.1.4).
    case amountOverContactlessLimit
    /// The card answered SELECT PPSE with an error or without a directory.
    case proximityEnvironmentUnavailable(StatusWord?)
    /// No application on the card matches one the reader supports on an allowed kernel.
    case noMutuallySupportedApplication
    /// Every candidate application failed its selection or processing.
    case candidatesExhausted
    /// The card wants the cardholder to verify on the phone first (Kernel 3 status 6986, Kernel 2 DF4B).
    case consumerDeviceCVMRequired
    /// The card asked for another interface (Kernel 3 GPO status 6984).
    case cardRequestedAnotherInterface
    /// A command failed with this status word (for example an exhausted card's answer to GET PROCESSING OPTIONS).
    case cardStatus(command: String, StatusWord)
    /// The card's response could not be parsed or lacks a data object the kernel needs.
    case invalidCardData(String)
    /// A mandatory data object is missing.
    case missingCardData(Tag)
    /// The card has no mode this reader supports (mag-stripe only with mag-stripe mode off, or no EMV mode).
    case unsupportedCard(String)
    /// The card generated an ARQC: the issuer decides.
    case onlineAuthorizationRequested
    /// Mag-stripe mode: the card computed its dynamic CVC3 (no application cryptogram); the issuer decides.
    case magStripeOnlineAuthorizationRequested
    /// The card generated a TC after successful offline data authentication.
    case approvedOffline
    /// The card generated an AAC.
    case declinedByCard
    /// Terminal action analysis decided to decline (Kernel 2 denial action codes).
    case declinedByTerminal
    /// Offline data authentication failed and the kernel's rules do not allow going on.
    case offlineDataAuthenticationFailed
    /// A CVM is required but the card offers none the reader supports.
    case cardholderVerificationFailed
    /// The card left the field before the transaction finished.
    case cardRemoved
    /// The link to the card failed.
    case transmissionFailed
    /// A response was not a response APDU.
    case malformedResponse
    /// The card did not answer in time.
    case timedOut
    /// The transaction environment cannot be encoded (a date outside EMV's 1950-2049, an unpredictable number of the
    /// wrong length) or the amount does not fit n12.
    case invalidTransactionData(String)
    /// The card kept the reader busy beyond the command limit.
    case tooManyCommands

    /// A short explanation for transcripts.
    public var description: String {
        switch self {
        case .amountOverContactlessLimit: "amount at or over the contactless transaction limit"
        case .proximityEnvironmentUnavailable(let status):
            "SELECT PPSE failed" + (status.map { " (\($0))" } ?? "")
        case .noMutuallySupportedApplication: "no application on the card that the reader supports"
        case .candidatesExhausted: "no candidate application left"
        case .consumerDeviceCVMRequired: "the card asks for cardholder verification on the phone"
        case .cardRequestedAnotherInterface: "the card asks for another interface"
        case .cardStatus(let command, let status): "\(command) answered \(status)"
        case .invalidCardData(let what): "invalid card data: \(what)"
        case .missingCardData(let tag): "the card did not provide tag \(tag)"
        case .unsupportedCard(let what): "unsupported card: \(what)"
        case .onlineAuthorizationRequested: "the card requests online authorisation (ARQC)"
        case .magStripeOnlineAuthorizationRequested: "the card requests online authorisation (mag-stripe CVC3)"
        case .approvedOffline: "the card approved offline (TC)"
        case .declinedByCard: "the card declined (AAC)"
        case .declinedByTerminal: "terminal action analysis declined"
        case .offlineDataAuthenticationFailed: "offline data authentication failed"
        case .cardholderVerificationFailed: "cardholder verification required but not possible"
        case .cardRemoved: "card removed before the transaction finished"
        case .transmissionFailed: "transmission to the card failed"
        case .malformedResponse: "the card sent a malformed response"
        case .timedOut: "the card did not answer in time"
        case .invalidTransactionData(let what): "invalid transaction data: \(what)"
        case .tooManyCommands: "too many commands"
        }
    }
}
