public import Foundation
public import TapToPay

extension ReaderSDK {
    /// What the terminal reports, in order, on ``ReaderSDK/events``: the configuration's status and progress, the
    /// payment screen of each sale, and what the reader underneath shows.
    public enum Event: Sendable, Hashable, CustomStringConvertible {
        /// The connection's configuration changed state.
        case configurationStatus(ConfigurationStatus)
        /// A device's first configuration at the PSP: percent done, 0…100 (none when reconnecting to a known device).
        case configurationProgress(Int)
        /// The payment screen opened: the merchant's display name and what the cardholder is asked to pay.
        case paymentScreen(PaymentScreen)
        /// The reader's own event (``TapToPay/PaymentCardReader/Event``), progress excepted.
        case reader(PaymentCardReader.Event)

        /// `configurationStatus(configured)`, `reader(readyForTap)`, ….
        public var description: String {
            switch self {
            case .configurationStatus(let status): "configurationStatus(\(status.rawValue))"
            case .configurationProgress(let percent): "configurationProgress(\(percent))"
            case .paymentScreen(let screen): "paymentScreen(\(screen))"
            case .reader(let event): "reader(\(event))"
            }
        }
    }

    /// Where the connection's configuration is.
    public enum ConfigurationStatus: String, Sendable, Hashable, Codable {
        /// Connecting: the reader token, the account link and the device's prepare at the PSP.
        case configuring
        /// Ready for sales.
        case configured
        /// The connection failed; the terminal is not connected.
        case failed
        /// The app went to the background: the reader session ended; it is configured again in the foreground.
        case notReady
        /// Disconnected (by the app, or to connect another device).
        case disconnected
    }

    /// What the payment screen shows the cardholder.
    public struct PaymentScreen: Sendable, Hashable, CustomStringConvertible {
        /// What the screen asks for.
        public enum Purpose: String, Sendable, Hashable, Codable {
            /// A sale.
            case sale
            /// A refund to the card.
            case refund
            /// A card verification without an amount (look up, open tab, save card).
            case verification
        }

        /// The merchant's display name (``ReaderSDK/displayName`` when the device connected).
        public let merchantDisplayName: String
        /// Sale, refund or verification.
        public let purpose: Purpose
        /// The amount (zero for a verification).
        public let amount: Decimal
        /// ISO 4217 alphabetic code.
        public let currency: String
        /// The sale's description, when the app gave one.
        public let paymentDescription: String?

        /// Creates a screen.
        public init(
            merchantDisplayName: String, purpose: Purpose, amount: Decimal, currency: String,
            paymentDescription: String? = nil
        ) {
            self.merchantDisplayName = merchantDisplayName
            self.purpose = purpose
            self.amount = amount
            self.currency = currency
            self.paymentDescription = paymentDescription
        }

        /// `Corner Shop: sale 12.34 EUR`.
        public var description: String { "\(merchantDisplayName): \(purpose.rawValue) \(amount) \(currency)" }
    }
}
