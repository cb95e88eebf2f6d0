/// The four-digit message type indicator (MTI) that opens every ISO 8583 message: version, class, function and
/// origin, e.g. `0100` (1987 authorization request from the acquirer).
public struct MessageTypeIndicator: Hashable, Sendable, CustomStringConvertible {
    /// The ISO 8583 version (first digit).
    public struct Version: RawRepresentable, Hashable, Sendable {
        /// The digit, 0-9.
        public let rawValue: UInt8
        /// Creates a version from its digit.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// ISO 8583:1987.
        public static let iso1987 = Version(rawValue: 0)
        /// ISO 8583:1993.
        public static let iso1993 = Version(rawValue: 1)
        /// ISO 8583:2003.
        public static let iso2003 = Version(rawValue: 2)
    }

    /// The message class (second digit).
    public struct MessageClass: RawRepresentable, Hashable, Sendable {
        /// The digit, 0-9.
        public let rawValue: UInt8
        /// Creates a class from its digit.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Authorization (x1xx).
        public static let authorization = MessageClass(rawValue: 1)
        /// Financial presentment (x2xx).
        public static let financial = MessageClass(rawValue: 2)
        /// File actions (x3xx).
        public static let fileAction = MessageClass(rawValue: 3)
        /// Reversal and chargeback (x4xx).
        public static let reversal = MessageClass(rawValue: 4)
        /// Reconciliation (x5xx).
        public static let reconciliation = MessageClass(rawValue: 5)
        /// Administrative (x6xx).
        public static let administrative = MessageClass(rawValue: 6)
        /// Fee collection (x7xx).
        public static let feeCollection = MessageClass(rawValue: 7)
        /// Network management (x8xx).
        public static let networkManagement = MessageClass(rawValue: 8)
    }

    /// The message function (third digit).
    public struct Function: RawRepresentable, Hashable, Sendable {
        /// The digit, 0-9.
        public let rawValue: UInt8
        /// Creates a function from its digit.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Request (xx0x).
        public static let request = Function(rawValue: 0)
        /// Response to a request (xx1x).
        public static let requestResponse = Function(rawValue: 1)
        /// Advice (xx2x).
        public static let advice = Function(rawValue: 2)
        /// Response to an advice (xx3x).
        public static let adviceResponse = Function(rawValue: 3)
        /// Notification (xx4x).
        public static let notification = Function(rawValue: 4)
        /// Acknowledgement of a notification (xx5x).
        public static let notificationAcknowledgement = Function(rawValue: 5)
    }

    /// Who sent the message (fourth digit).
    public struct Origin: RawRepresentable, Hashable, Sendable {
        /// The digit, 0-9.
        public let rawValue: UInt8
        /// Creates an origin from its digit.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The acquirer (xxx0).
        public static let acquirer = Origin(rawValue: 0)
        /// The acquirer, repeated (xxx1).
        public static let acquirerRepeat = Origin(rawValue: 1)
        /// The issuer (xxx2).
        public static let issuer = Origin(rawValue: 2)
        /// The issuer, repeated (xxx3).
        public static let issuerRepeat = Origin(rawValue: 3)
        /// Another party (xxx4).
        public static let other = Origin(rawValue: 4)
    }

    /// The version digit.
    public var version: Version
    /// The class digit.
    public var messageClass: MessageClass
    /// The function digit.
    public var function: Function
    /// The origin digit.
    public var origin: Origin

    /// Creates an MTI from its four parts; digits over 9 are kept modulo 10 so the MTI always has four digits.
    public init(version: Version, messageClass: MessageClass, function: Function, origin: Origin) {
        self.version = Version(rawValue: version.rawValue % 10)
        self.messageClass = MessageClass(rawValue: messageClass.rawValue % 10)
        self.function = Function(rawValue: function.rawValue % 10)
        self.origin = Origin(rawValue: origin.rawValue % 10)
    }

    /// Parses four decimal digits, e.g. `"0100"`; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 4 else { return nil }
        self.init(digits: (utf8[0] &- 0x30, utf8[1] &- 0x30, utf8[2] &- 0x30, utf8[3] &- 0x30))
    }

    /// Four digit values (0-9 each); nil when any is over 9.
    init?(digits: (UInt8, UInt8, UInt8, UInt8)) {
        guard digits.0 <= 9, digits.1 <= 9, digits.2 <= 9, digits.3 <= 9 else { return nil }
        self.init(
            version: Version(rawValue: digits.0), messageClass: MessageClass(rawValue: digits.1),
            function: Function(rawValue: digits.2), origin: Origin(rawValue: digits.3))
    }

    /// The four digits as ASCII bytes.
    var asciiDigits: [UInt8] {
        [version.rawValue + 0x30, messageClass.rawValue + 0x30, function.rawValue + 0x30, origin.rawValue + 0x30]
    }

    /// The four digits, e.g. `0110`.
    public var description: String { String(decoding: asciiDigits, as: UTF8.self) }

    /// The response to this request or advice (function + 1, e.g. 0100 → 0110); nil when this is not a request,
    /// advice or notification.
    public var response: MessageTypeIndicator? {
        guard [Function.request, .advice, .notification].contains(function) else { return nil }
        var response = self
        response.function = Function(rawValue: function.rawValue + 1)
        return response
    }

    /// `0100`: authorization request.
    public static let authorizationRequest = Self(digits: (0, 1, 0, 0))!
    /// `0110`: authorization response.
    public static let authorizationResponse = Self(digits: (0, 1, 1, 0))!
    /// `0200`: financial request.
    public static let financialRequest = Self(digits: (0, 2, 0, 0))!
    /// `0210`: financial response.
    public static let financialResponse = Self(digits: (0, 2, 1, 0))!
    /// `0400`: reversal request.
    public static let reversalRequest = Self(digits: (0, 4, 0, 0))!
    /// `0410`: reversal response.
    public static let reversalResponse = Self(digits: (0, 4, 1, 0))!
    /// `0420`: reversal advice.
    public static let reversalAdvice = Self(digits: (0, 4, 2, 0))!
    /// `0430`: reversal advice response.
    public static let reversalAdviceResponse = Self(digits: (0, 4, 3, 0))!
    /// `0800`: network management request (echo, sign-on).
    public static let networkManagementRequest = Self(digits: (0, 8, 0, 0))!
    /// `0810`: network management response.
    public static let networkManagementResponse = Self(digits: (0, 8, 1, 0))!
}
