public import Foundation
public import GatewayAPI

/// The result of a card read or a PIN capture (ProximityReader's `PaymentCardReadResult`).
///
/// ``paymentCardData`` is what the app sends to its PSP: for a read, the card data sealed to the PSP with HPKE
/// (usable once, within 60 s of the read); for a PIN capture, as Apple documents, both: the read's card data sealed
/// again with the PIN block (ISO 9564 format 4 under the device's PIN key). Neither can be read on the device. ``description`` shows identifiers and sizes only.
public struct PaymentCardReadResult: Identifiable, Sendable, Hashable, CustomStringConvertible {
    /// The read's id: pass it to `capturePIN(using:cardReaderTransactionID:)`; the PSP sees it as the read id.
    public let id: String
    /// Base64 of the JSON of a ``GatewayAPI/SealedCardData`` (after a PIN capture, with the PIN inside); nil when
    /// there is none (a bypassed PIN).
    public let paymentCardData: String?
    /// Base64 of BER-TLV data that is not secret: the application's DF name (84) and label (50), amount (9F02),
    /// currency (5F2A), transaction type (9C), terminal country (9F1A) and id (9F1C), CVM results (9F34).
    public let generalCardData: String?
    /// How the read ended; meaningful with `includeErrorInReadResult` (otherwise failures throw).
    public let outcome: ReadOutcome
    /// Whether the cardholder bypassed PIN entry.
    public let pinBypassed: Bool
    /// Whether the PIN was asked after the read, because the issuer asked for it (PIN capture).
    public let isPINFallback: Bool
    /// The selected application's AID in hex, e.g. `A0000000031010`.
    public let applicationTypeIdentifier: String?

    /// Creates a result.
    public init(
        id: String, paymentCardData: String?, generalCardData: String?, outcome: ReadOutcome, pinBypassed: Bool = false,
        isPINFallback: Bool = false, applicationTypeIdentifier: String?
    ) {
        self.id = id
        self.paymentCardData = paymentCardData
        self.generalCardData = generalCardData
        self.outcome = outcome
        self.pinBypassed = pinBypassed
        self.isPINFallback = isPINFallback
        self.applicationTypeIdentifier = applicationTypeIdentifier
    }

    /// How a read ended.
    public enum ReadOutcome: String, Sendable, Hashable {
        /// The card was read.
        case success
        /// The card declined offline; the data is there for the record.
        case cardDeclined
        /// The read failed; the data may be incomplete.
        case failure
    }

    /// The sealed card data of a read, decoded from ``paymentCardData``, for the app's call to its PSP.
    /// - Throws: `DecodingError` when there is none or it is not sealed card data.
    public func sealedCardData() throws -> SealedCardData {
        try JSONDecoder.gatewayAPI.decode(SealedCardData.self, from: Self.decodedPayload(paymentCardData))
    }

    /// The body of `POST /v1/payments/{id}/pin` for a PIN capture: `pinToken` (the PSP's, from the payment that
    /// asked for the PIN) with the capture's sealed card data.
    /// - Throws: `DecodingError` when there is none or it is not a PIN submission.
    public func pinSubmission(pinToken: String) throws -> PINSubmission {
        PINSubmission(pinToken: pinToken, cardData: try sealedCardData())
    }

    private static func decodedPayload(_ text: String?) throws -> Data {
        guard let text, let data = Data(base64Encoded: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no base64 payment card data"))
        }
        return data
    }

    /// Identifiers and sizes only.
    public var description: String {
        "PaymentCardReadResult(\(id), \(outcome.rawValue), \(paymentCardData?.count ?? 0) characters of payment data"
            + (isPINFallback ? ", PIN capture" : "") + (pinBypassed ? ", PIN bypassed" : "") + ")"
    }
}
