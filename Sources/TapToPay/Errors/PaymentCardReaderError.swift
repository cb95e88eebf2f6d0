public import Foundation

/// An error of the reader's set-up: linking the merchant's account, preparing the device, the app's lifecycle.
///
/// The cases are ProximityReader's, so code written against Apple's framework compiles and switches exhaustively:
/// `catch PaymentCardReaderError.accountNotLinked`, `switch error { case .notAllowed: … }`. Cases this platform
/// never raises say why in their documentation. Descriptions never carry tokens or card data.
public enum PaymentCardReaderError: Error, Sendable, Hashable {
    /// The merchant already accepted the Terms and Conditions (relinking takes `relinkAccount(using:)`).
    case accountAlreadyLinked
    /// The linked account was deactivated by the merchant. Never raised here: the gateway has no account
    /// deactivation.
    case accountDeactivated
    /// The merchant cancelled linking. Never raised here: linking shows no sheet to cancel.
    case accountLinkingCancelled
    /// The gateway could not say whether the merchant's account is linked.
    case accountLinkingCheckFailed
    /// The account could not be linked or relinked (the token does not allow relinking, or the PSP refused).
    case accountLinkingFailed
    /// Linking needs an Apple Account signed in. Never raised here: there are no Apple Accounts.
    case accountLinkingRequiresiCloudSignIn
    /// The merchant has not accepted the Terms and Conditions: call `linkAccount(using:)` first.
    case accountNotLinked
    /// The app asked for a prepare while in the background.
    case backgroundRequestNotAllowed
    /// The device may not be used until the date: it served three other merchants in the last 24 hours.
    case deviceBanned(Date?)
    /// The reader token is empty.
    case emptyReaderToken
    /// The token's merchant is unknown to the PSP (it answers `notFound`).
    case invalidMerchant
    /// The PSP did not accept the reader token (why, when known).
    case invalidReaderToken(String?)
    /// The merchant is restricted from Tap to Pay. Never raised here: the gateway restricts devices
    /// (``deviceBanned(_:)``), not merchants.
    case merchantBlocked
    /// This device model is not supported. Never raised here: any process with a contactless interface reads cards
    /// (no interface is ``unsupported``).
    case modelNotSupported
    /// The PSP refused the call's authentication (it answers `unauthorized`: a credential other than a reader
    /// token's).
    case networkAuthenticationError
    /// The PSP could not be reached.
    case networkError
    /// The token's user may not do this: only a merchant admin may accept the Terms and Conditions.
    case notAllowed
    /// The reader session is not ready (it ended when the app went to the background): prepare again.
    case notReady
    /// This OS version is not supported. Never raised here: the reader runs wherever Swift does.
    case osVersionNotSupported
    /// The device has no passcode. Never raised here: there is no device passcode to check.
    case passcodeDisabled
    /// The reader's session expired. Never raised here: an expired session shows on the next read as
    /// ``PaymentCardReaderSession/ReadError/readerSessionExpired``.
    case prepareExpired
    /// The device could not be prepared (why, when known).
    case prepareFailed(String?)
    /// A prepare or a read is in progress.
    case readerBusy
    /// The reader's memory is full. Never raised here: the reader keeps nothing between reads but 55 s of PIN
    /// state.
    case readerMemoryFull
    /// The app went to the background before the reader request completed. Never raised here: a prepare
    /// interrupted that way throws ``serviceConnectionError``, as Apple's article describes.
    case requestInterrupted
    /// The app went to the background while the device was being configured: the configuration continues, and the
    /// next prepare in the foreground finishes it and returns a new session.
    case serviceConnectionError
    /// No Store and Forward session can be made. Never raised here: there is no Store and Forward mode.
    case storeAndForwardNotAllowed
    /// The Store and Forward session expired. Never raised here: there is no Store and Forward mode.
    case storeAndForwardSessionExpired
    /// The Store and Forward session was invalidated. Never raised here: there is no Store and Forward mode.
    case storeAndForwardSessionInvalidated
    /// Store and Forward holds another issuer's payments. Never raised here: there is no Store and Forward mode.
    case storeAndForwardTokenIssuerChanged
    /// The reader token expired: ask the PSP for a new one.
    case tokenExpired
    /// No contactless interface is configured in this process (``PaymentCardReader/isSupported`` is false).
    case unsupported
    /// An unexpected error. Never raised here: every failure of the PSP or the device maps to one of the cases
    /// above (a failure with no better name is the operation's own: `prepareFailed`, `accountLinkingFailed`, …).
    case unknown(code: Int)

    /// Apple's name for the case (the enum prints as it, as Apple's does), e.g. `accountNotLinked`.
    public var errorName: String {
        switch self {
        case .deviceBanned: "deviceBanned"
        case .invalidReaderToken: "invalidReaderToken"
        case .prepareFailed: "prepareFailed"
        case .unknown: "unknown"
        default: String(describing: self)
        }
    }

    /// What went wrong, in plain text.
    public var errorDescription: String {
        switch self {
        case .accountAlreadyLinked: "The merchant already accepted the Terms and Conditions."
        case .accountDeactivated: "The linked account was deactivated by the merchant."
        case .accountLinkingCancelled: "The merchant cancelled linking."
        case .accountLinkingCheckFailed: "The account status of the merchant could not be checked."
        case .accountLinkingFailed: "The merchant's account could not be linked."
        case .accountLinkingRequiresiCloudSignIn: "The merchant must be signed in to accept the Terms and Conditions."
        case .accountNotLinked: "The merchant must accept the Terms and Conditions."
        case .backgroundRequestNotAllowed: "Requests to the reader are not allowed while the app is in the background."
        case .deviceBanned(let until): "The device may not be used until \(until.map { "\($0)" } ?? "later")."
        case .emptyReaderToken: "The reader token is empty."
        case .invalidMerchant: "The merchant is invalid or unknown."
        case .invalidReaderToken(let why): "The reader token is invalid\(why.map { ": \($0)" } ?? ".")"
        case .merchantBlocked: "The merchant is blocked."
        case .modelNotSupported: "This device model is not supported."
        case .networkAuthenticationError: "The payment service provider refused the connection's authentication."
        case .networkError: "The payment service provider could not be reached."
        case .notAllowed: "Not allowed: only a merchant admin may accept the Terms and Conditions."
        case .notReady: "The reader session is not ready: prepare again."
        case .osVersionNotSupported: "This OS version is not supported."
        case .passcodeDisabled: "The device has no passcode."
        case .prepareExpired: "The reader's session expired: prepare again."
        case .prepareFailed(let why): "The device could not be prepared\(why.map { ": \($0)" } ?? ".")"
        case .readerBusy: "The reader is busy: a prepare or a read is in progress."
        case .readerMemoryFull: "The reader's memory is full."
        case .requestInterrupted: "The app went to the background before the request completed."
        case .serviceConnectionError: "The configuration continues in the background: prepare again in the foreground."
        case .storeAndForwardNotAllowed: "Store and Forward is not allowed."
        case .storeAndForwardSessionExpired: "The Store and Forward session expired."
        case .storeAndForwardSessionInvalidated: "The Store and Forward session was invalidated."
        case .storeAndForwardTokenIssuerChanged: "Store and Forward holds payments of another token issuer."
        case .tokenExpired: "The reader token expired."
        case .unsupported: "This process has no contactless interface (set CONTACTLESS_READER)."
        case .unknown(let code): "An unexpected error happened (code \(code))."
        }
    }
}
