public import EMV

/// One decision of the entry point or a kernel, recorded in order so that a person (or `tap demo`) can follow a
/// transaction. Events carry status words, tags, flags and masked values, never a PAN or track data.
public enum KernelEvent: Sendable, Hashable, CustomStringConvertible {
    /// Pre-processing compared the amount with each kernel's limits.
    case limitsChecked(amount: Amount, [PreProcessingIndicators])
    /// The candidate list, in selection order.
    case candidatesBuilt([Candidate])
    /// A candidate was selected and its kernel activated.
    case applicationSelected(Candidate)
    /// A candidate was dropped (its selection or processing failed) and the next one is tried.
    case selectNext(adfName: [UInt8], reason: OutcomeReason)
    /// The Terminal Transaction Qualifiers Kernel 3 sent.
    case terminalTransactionQualifiers(TerminalTransactionQualifiers)
    /// The card's Application Interchange Profile and how many records the AFL names.
    case processingOptions(ApplicationInterchangeProfile, recordCount: Int)
    /// Kernel 2 chose mag-stripe mode (the card has no EMV mode).
    case magStripeModeSelected
    /// The Card Transaction Qualifiers Kernel 3 received.
    case cardTransactionQualifiers(CardTransactionQualifiers)
    /// Offline data authentication's result.
    case offlineDataAuthentication(OfflineDataAuthentication)
    /// The CVM decision, with Kernel 2's CVM Results (9F34).
    case cardholderVerification(CardholderVerification, results: CVMResults?)
    /// The Terminal Verification Results at the decision point.
    case terminalVerificationResults(TerminalVerificationResults)
    /// Kernel 2 asked for a cryptogram.
    case cryptogramRequested(CommandAPDU.CryptogramRequest, cda: Bool)
    /// The card's cryptogram type (from its Cryptogram Information Data) and ATC.
    case cryptogramReceived(type: String, atc: [UInt8])
    /// The transaction ended.
    case outcome(Outcome)

    private static func name(_ request: CommandAPDU.CryptogramRequest) -> String {
        switch request {
        case .aac: "AAC"
        case .tc: "TC"
        case .arqc: "ARQC"
        }
    }

    /// One line for a transcript.
    public var description: String {
        switch self {
        case .limitsChecked(let amount, let indicators):
            "Limits for \(amount): " + indicators.map(\.description).joined(separator: "; ")
        case .candidatesBuilt(let candidates):
            candidates.isEmpty
                ? "Candidate list is empty"
                : "Candidate list: " + candidates.map(\.description).joined(separator: "; ")
        case .applicationSelected(let candidate): "Selected \(candidate)"
        case .selectNext(let adfName, let reason): "Dropped \(adfName.hexString): \(reason); selecting the next one"
        case .terminalTransactionQualifiers(let ttq): "TTQ \(ttq)"
        case .processingOptions(let aip, let count): "AIP \(aip); \(count) record(s) to read"
        case .magStripeModeSelected: "Mag-stripe mode: the card offers no EMV mode"
        case .cardTransactionQualifiers(let ctq): "CTQ \(ctq)"
        case .offlineDataAuthentication(let result): "Offline data authentication: \(result)"
        case .cardholderVerification(let cvm, let results):
            "Cardholder verification: \(cvm)" + (results.map { " (CVM results \($0.bytes.hexString): \($0))" } ?? "")
        case .terminalVerificationResults(let tvr): "TVR \(tvr)"
        case .cryptogramRequested(let type, let cda):
            "GENERATE AC requesting \(Self.name(type))" + (cda ? " with CDA" : "")
        case .cryptogramReceived(let type, let atc): "Card returned \(type), ATC \(atc.hexString)"
        case .outcome(let outcome): "Outcome \(outcome)"
        }
    }
}
