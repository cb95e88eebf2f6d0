/// What the reader should show the cardholder with an outcome (EMV Contactless Book A, 7.1: message identifier and
/// status).
public struct UserInterfaceRequest: Sendable, Hashable, CustomStringConvertible {
    /// A standard message (Book A, table 9.5), by its identifier.
    public enum Message: UInt8, Sendable, Hashable, CaseIterable {
        /// `03` Approved.
        case approved = 0x03
        /// `07` Not authorised.
        case notAuthorised = 0x07
        /// `09` Please enter your PIN.
        case enterPIN = 0x09
        /// `0F` Processing error.
        case processingError = 0x0F
        /// `10` Remove card.
        case removeCard = 0x10
        /// `17` Card read OK.
        case cardReadOK = 0x17
        /// `18` Please insert or swipe card.
        case insertOrSwipeCard = 0x18
        /// `1A` Approved, please sign.
        case approvedPleaseSign = 0x1A
        /// `1B` Authorising, please wait.
        case authorisingPleaseWait = 0x1B
        /// `1C` Insert, swipe or try another card.
        case tryAnotherCard = 0x1C
        /// `1D` Please insert card.
        case insertCard = 0x1D
        /// `20` See phone for instructions.
        case seePhone = 0x20
        /// `21` Present card again.
        case presentCardAgain = 0x21

        /// The English text of Book A.
        public var text: String {
            switch self {
            case .approved: "Approved"
            case .notAuthorised: "Not authorised"
            case .enterPIN: "Please enter your PIN"
            case .processingError: "Processing error"
            case .removeCard: "Remove card"
            case .cardReadOK: "Card read OK"
            case .insertOrSwipeCard: "Please insert or swipe card"
            case .approvedPleaseSign: "Approved, please sign"
            case .authorisingPleaseWait: "Authorising, please wait"
            case .tryAnotherCard: "Insert, swipe or try another card"
            case .insertCard: "Please insert card"
            case .seePhone: "See phone for instructions"
            case .presentCardAgain: "Present card again"
            }
        }
    }

    /// The reader's state to show (Book A, table 9.6).
    public enum Status: String, Sendable, Hashable {
        /// Not ready: the transaction is over or waiting for the cardholder elsewhere.
        case notReady
        /// Ready to read: present a card.
        case readyToRead
        /// Processing.
        case processing
        /// The card was read successfully; it may be removed.
        case cardReadSuccessfully
        /// Processing error.
        case processingError
    }

    /// The message.
    public var message: Message
    /// The status.
    public var status: Status

    /// Creates a request.
    public init(message: Message, status: Status) {
        self.message = message
        self.status = status
    }

    /// `See phone for instructions (notReady)`.
    public var description: String { "\(message.text) (\(status.rawValue))" }
}
