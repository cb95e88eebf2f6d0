public import EMV
import Foundation
public import SmartCard

/// One contactless transaction as a value-type state machine: the entry point (EMV Contactless Book B), then Kernel 3
/// (Book C-3, Visa) or Kernel 2 (Book C-2, Mastercard). It does no I/O: it returns the next command to send, takes
/// the card's response, and ends with an ``Outcome``.
///
/// ```swift
/// var transaction = KernelTransaction(configuration: configuration, request: request, environment: environment)
/// var action = transaction.start()
/// while case .transmit(let command) = action {
///     action = transaction.receive(try await channel.transmit(command))
/// }
/// ```
///
/// ``ReaderKernel/perform(_:over:)`` runs it over any `CardChannel` and maps transport errors with
/// ``transportFailed(_:)``. The decisions it takes are recorded in ``events``.
public struct KernelTransaction: Sendable {
    /// The reader's configuration.
    public let configuration: ReaderConfiguration
    /// What the merchant asked for.
    public let request: TransactionRequest
    /// Date, time and unpredictable number.
    public let environment: TransactionEnvironment
    /// The decisions taken so far, in order.
    public internal(set) var events: [KernelEvent] = []
    /// The outcome, once the transaction is over.
    public internal(set) var outcome: Outcome?

    /// Where the state machine waits.
    enum Step: Sendable {
        case notStarted
        case selectingPPSE
        case selectingApplication
        case gettingProcessingOptions
        case readingRecords
        case generatingAC
        case computingChecksum
        case complete
    }

    /// The most commands one transaction may send: a malicious AFL must not keep the reader busy forever.
    static let commandLimit = 128

    var step = Step.notStarted
    var commandCount = 0
    /// Pre-processing results by kernel identifier.
    var indicators: [UInt8: PreProcessingIndicators] = [:]
    var candidates: [Candidate] = []
    /// The reason the last candidate was dropped, reported when none is left.
    var lastDropReason: OutcomeReason?

    // Per candidate: reset when a candidate is selected.
    var card = CardData()
    var pendingRecords: [ApplicationFileLocator.Record] = []
    var terminalTransactionQualifiers: TerminalTransactionQualifiers = []
    var terminalVerificationResults: TerminalVerificationResults = []
    var terminalCapabilities: [UInt8]
    var cardholderVerification = CardholderVerification.notApplicable
    var cvmResults: CVMResults?
    var pdolData: [UInt8] = []
    var cdol1Data: [UInt8] = []
    var cdaRequested = false
    var magStripeUnpredictableNumber: [UInt8] = []

    // Transaction data in its EMV encodings, computed once; nil when the request or environment cannot be encoded.
    let amountAuthorised: [UInt8]?
    let amountOther: [UInt8]?
    let transactionDate: EMVDate?
    let transactionTime: [UInt8]

    /// Prepares a transaction; nothing is sent until ``start()``.
    public init(configuration: ReaderConfiguration, request: TransactionRequest, environment: TransactionEnvironment) {
        self.configuration = configuration
        self.request = request
        self.environment = environment
        terminalCapabilities = configuration.terminalCapabilities
        amountAuthorised = try? request.amount.n12()
        amountOther = try? (request.otherAmount ?? Amount(minorUnits: 0, currency: request.currency)).n12()
        transactionDate = try? EMVDate(environment.date, timeZone: environment.timeZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = environment.timeZone
        let time = calendar.dateComponents([.hour, .minute, .second], from: environment.date)
        transactionTime = NumericBCD.encode(
            (time.hour ?? 0) * 10_000 + (time.minute ?? 0) * 100 + (time.second ?? 0), byteCount: 3)
    }

    /// The candidate being processed.
    public var selectedCandidate: Candidate? { step == .notStarted ? nil : candidates.first }

    /// Begins the transaction: pre-processing against the limits, then SELECT PPSE.
    public mutating func start() -> KernelAction {
        guard step == .notStarted else { return repeatCompletion() }
        guard amountAuthorised != nil, amountOther != nil, request.amount.minorUnits >= 0 else {
            return finish(.endApplication, .invalidTransactionData("the amount does not fit n12"))
        }
        guard transactionDate != nil else {
            return finish(.endApplication, .invalidTransactionData("the date is outside 1950-2049"))
        }
        guard environment.unpredictableNumber.count == 4 else {
            return finish(.endApplication, .invalidTransactionData("the unpredictable number must have 4 bytes"))
        }
        preProcess()
        // Book B 3.1.1.4: when no kernel may take the amount contactless, the card is not even selected.
        if !indicators.isEmpty, indicators.values.allSatisfy(\.contactlessApplicationNotAllowed) {
            return finish(.tryAnotherInterface, .amountOverContactlessLimit)
        }
        step = .selectingPPSE
        return send(.selectPPSE)
    }

    /// Continues with the card's response to the last command.
    public mutating func receive(_ response: ResponseAPDU) -> KernelAction {
        switch step {
        case .notStarted: start()
        case .selectingPPSE: receiveDirectory(response)
        case .selectingApplication: receiveFileControlInformation(response)
        case .gettingProcessingOptions: receiveProcessingOptions(response)
        case .readingRecords: receiveRecord(response)
        case .generatingAC: receiveApplicationCryptogram(response)
        case .computingChecksum: receiveCryptographicChecksum(response)
        case .complete: repeatCompletion()
        }
    }

    /// Ends the transaction after a transport failure (EMV Contactless Book A: a communication error gives Try Again
    /// with "Present card again").
    public mutating func transportFailed(_ error: SmartCardError) -> Outcome {
        let reason: OutcomeReason =
            switch error.code {
            case .cardRemoved: .cardRemoved
            case .timedOut: .timedOut
            case .malformedResponse: .malformedResponse
            default: .transmissionFailed
            }
        let action = finish(
            .tryAgain, reason, userInterface: UserInterfaceRequest(message: .presentCardAgain, status: .readyToRead))
        if case .complete(let outcome) = action { return outcome }
        return Outcome(status: .tryAgain, reason: reason)
    }

    // MARK: Helpers shared by the entry point and the kernels

    /// Counts and returns a command to send.
    mutating func send(_ command: CommandAPDU) -> KernelAction {
        commandCount += 1
        guard commandCount <= Self.commandLimit else { return finish(.endApplication, .tooManyCommands) }
        return .transmit(command)
    }

    /// Records the outcome and ends the transaction.
    mutating func finish(
        _ status: Outcome.Status, _ reason: OutcomeReason, userInterface: UserInterfaceRequest? = nil,
        authorizationData: CardAuthorizationData? = nil
    ) -> KernelAction {
        let outcome = Outcome(
            status: status, reason: reason, userInterface: userInterface ?? Self.defaultUserInterface(for: status),
            cardholderVerification: cardholderVerification, kernel: selectedKernel,
            authorizationData: authorizationData)
        self.outcome = outcome
        step = .complete
        events.append(.outcome(outcome))
        return .complete(outcome)
    }

    /// Try Again with "See phone for instructions": the cardholder must verify on the phone, then tap again.
    mutating func seePhone() -> KernelAction {
        finish(
            .tryAgain, .consumerDeviceCVMRequired,
            userInterface: UserInterfaceRequest(message: .seePhone, status: .notReady))
    }

    private func repeatCompletion() -> KernelAction {
        .complete(outcome ?? Outcome(status: .endApplication, reason: .invalidTransactionData("transaction misused")))
    }

    /// The kernel of the selected candidate, if one was selected.
    var selectedKernel: Kernel? {
        switch step {
        case .notStarted, .selectingPPSE: nil
        default: candidates.first?.kernel
        }
    }

    static func defaultUserInterface(for status: Outcome.Status) -> UserInterfaceRequest? {
        switch status {
        case .onlineRequest: UserInterfaceRequest(message: .authorisingPleaseWait, status: .cardReadSuccessfully)
        case .approved: UserInterfaceRequest(message: .approved, status: .cardReadSuccessfully)
        case .declined: UserInterfaceRequest(message: .notAuthorised, status: .cardReadSuccessfully)
        case .tryAgain: UserInterfaceRequest(message: .presentCardAgain, status: .readyToRead)
        case .tryAnotherInterface: UserInterfaceRequest(message: .insertOrSwipeCard, status: .processingError)
        case .endApplication: UserInterfaceRequest(message: .tryAnotherCard, status: .processingError)
        case .selectNext: nil
        }
    }

    /// The value a data object list asks for: the terminal's own data first, then what the card sent.
    func dataObjectValue(_ tag: Tag) -> [UInt8]? {
        terminalValue(tag) ?? card[tag]
    }

    /// The terminal and transaction data the kernels send (EMV Book 3 annex A, Books C-2 and C-3).
    func terminalValue(_ tag: Tag) -> [UInt8]? {
        switch tag {
        case .amountAuthorised: return amountAuthorised
        case .amountOther: return amountOther
        case .amountAuthorisedBinary: return Self.binary(request.amount.minorUnits, byteCount: 4)
        case 0x9F04: return Self.binary(request.otherAmount?.minorUnits ?? 0, byteCount: 4)
        case .transactionCurrencyCode: return request.currency.emvCode
        case .transactionCurrencyExponent: return [UInt8(truncatingIfNeeded: request.currency.exponent)]
        case .transactionDate: return transactionDate?.n6
        case .transactionTime: return transactionTime
        case .transactionType: return [request.type.rawValue]
        case .unpredictableNumber: return environment.unpredictableNumber
        case .terminalCountryCode: return configuration.terminalCountry.emvCode
        case .terminalType: return [configuration.terminalType]
        case .terminalCapabilities: return terminalCapabilities
        case .additionalTerminalCapabilities: return configuration.additionalTerminalCapabilities
        case .terminalVerificationResults: return terminalVerificationResults.bytes
        case .cvmResults: return cvmResults?.bytes
        case .applicationVersionNumberTerminal: return candidates.first?.application.applicationVersion
        case .terminalApplicationIdentifier: return candidates.first?.application.aid
        case .merchantNameAndLocation: return Array(configuration.merchantNameAndLocation.utf8)
        case 0x9F15: return NumericBCD.encode(Int(configuration.merchantCategoryCode) ?? 0, byteCount: 2)
        case 0x9F16: return Self.text(configuration.merchantIdentifier, length: 15)
        case 0x9F1C: return Self.text(configuration.terminalIdentifier, length: 8)
        case 0x9F1E: return Self.text(configuration.ifdSerialNumber, length: 8)
        case 0x9F6A where !magStripeUnpredictableNumber.isEmpty: return magStripeUnpredictableNumber
        // 9F66 is the reader's TTQ for Kernel 3 only; Kernel 2 cards use the tag for their PUNATC(Track2).
        case .terminalTransactionQualifiers where selectedKernel == .c3: return terminalTransactionQualifiers.bytes
        default: return nil
        }
    }

    private static func binary(_ value: Int, byteCount: Int) -> [UInt8] {
        let clamped = UInt64(clamping: max(value, 0))
        return (0..<byteCount).map { UInt8(truncatingIfNeeded: clamped >> (8 * UInt64(byteCount - 1 - $0))) }
    }

    private static func text(_ value: String, length: Int) -> [UInt8] {
        let bytes = Array(value.utf8.prefix(length))
        return bytes + [UInt8](repeating: 0x20, count: length - bytes.count)
    }
}
