import EMV
import Foundation
public import TapToPay

/// What a read's general card data says that a receipt shows: the AID, the application's label, and the CVM the
/// card reported. Nothing secret is in it (the reader leaves the PAN and track data out).
public struct CardSummary: Sendable, Hashable {
    /// The selected application's AID in hex.
    public var applicationIdentifier: String?
    /// The application's label (printable ASCII), when the card gave one.
    public var applicationLabel: String?
    /// The CVM the card reported (CVM results, 9F34); ``CardholderVerificationMethod/unknown`` without them.
    public var cardholderVerification: CardholderVerificationMethod

    /// Reads `result`'s general card data; what is missing or malformed stays unknown.
    public init(_ result: PaymentCardReadResult) {
        applicationIdentifier = result.applicationTypeIdentifier
        applicationLabel = nil
        cardholderVerification = .unknown
        guard let text = result.generalCardData, let data = Data(base64Encoded: text),
            let objects = try? TLV.parse(Array(data))
        else { return }
        if let aid = objects.first(.dedicatedFileName)?.value, applicationIdentifier == nil {
            applicationIdentifier = aid.hexString
        }
        if let label = objects.first(.applicationLabel)?.value {
            // Labels are `ans`: keep printable ASCII only.
            let printable = String(decoding: label.filter { (0x20...0x7E).contains($0) }, as: UTF8.self)
            applicationLabel = printable.isEmpty ? nil : printable
        }
        if let cvm = objects.first(.cvmResults)?.value, let results = try? CVMResults(bytes: cvm) {
            cardholderVerification = Self.method(results)
        }
    }

    private static func method(_ results: CVMResults) -> CardholderVerificationMethod {
        switch results.method {
        case .encipheredPINOnline: .onlinePIN
        case .signature: .signature
        // Book C-2 codes "no CVM" as CVM not performed ('3F 00 02').
        case .noCVMRequired, .notPerformed: .noCVM
        // Kernel 2 reports a CDCVM ("confirmation code verified") as plaintext PIN by the ICC, successful.
        case .plaintextPINByICC where results.result == .successful: .consumerDevice
        default: .unknown
        }
    }
}
