import EMV
import Foundation
import ReaderKernel

/// A validated read request: the kernel's transaction and what the result's general card data repeats.
struct ReadPlan: Sendable {
    /// The kernel's request.
    var transaction: TransactionRequest

    /// A purchase or refund read.
    init(_ request: PaymentCardTransactionRequest) throws(PaymentCardReaderSession.ReadError) {
        let currency = try Self.currency(request.currencyCode)
        let amount = try Self.amount(request.amount, currency)
        guard amount.minorUnits > 0 else { throw .invalidAmount }  // the amount must be greater than zero
        guard request.preferredAIDList.count <= PaymentCardTransactionRequest.maximumPreferredAIDCount else {
            throw PaymentCardReaderSession.ReadError.invalidPreferredAID
        }
        guard request.preferredAIDList.allSatisfy({ (5...16).contains($0.count) }) else {
            throw PaymentCardReaderSession.ReadError.invalidPreferredAID
        }
        if let description = request.transactionDescription {
            try Self.check(description, amount: amount, type: request.type)
        }
        transaction = TransactionRequest(
            amount: amount, type: request.type == .refund ? .refund : .purchase,
            preferredAIDs: request.preferredAIDList.map { Array($0) })
    }

    /// A verification read: a zero amount in the currency.
    init(_ request: PaymentCardVerificationRequest) throws(PaymentCardReaderSession.ReadError) {
        let currency = try Self.currency(request.currencyCode)
        transaction = TransactionRequest(amount: Amount(minorUnits: 0, currency: currency), type: .purchase)
    }

    /// BER-TLV of the read that is not secret: the AID (84), application label (50) and CVM results (9F34) when the
    /// card gave them, the amount (9F02), currency (5F2A), transaction type (9C), terminal country (9F1A) and
    /// terminal id (9F1C).
    func generalCardData(_ data: CardAuthorizationData, label: String?, configuration: ReaderConfiguration) -> Data? {
        let bytes = try? TLV.Serializer.serialize { serializer in
            if let aid = data.iccValue(.dedicatedFileName) {
                try serializer.append(tag: .dedicatedFileName, value: aid)
            }
            if let label, !label.isEmpty { try serializer.append(tag: .applicationLabel, value: Array(label.utf8)) }
            try serializer.append(tag: .amountAuthorised, value: transaction.amount.n12())
            try serializer.append(tag: .transactionCurrencyCode, value: transaction.currency.emvCode)
            try serializer.append(tag: .transactionType, value: [transaction.type.rawValue])
            try serializer.append(tag: .terminalCountryCode, value: configuration.terminalCountry.emvCode)
            try serializer.append(tag: 0x9F1C, value: Array(configuration.terminalIdentifier.utf8))
            if let cvm = data.iccValue(.cvmResults) { try serializer.append(tag: .cvmResults, value: cvm) }
        }
        return bytes.map { Data($0) }
    }

    private static func currency(_ code: String) throws(PaymentCardReaderSession.ReadError) -> Currency {
        guard code.count == 3, let currency = Currency(alphabeticCode: code.uppercased()) else {
            throw PaymentCardReaderSession.ReadError.invalidCurrencyCode
        }
        return currency
    }

    private static func amount(_ value: Decimal, _ currency: Currency) throws(PaymentCardReaderSession.ReadError)
        -> Amount
    {
        let amount: Amount
        do {
            amount = try Amount(value, currency: currency)
        } catch {
            throw .invalidAmount  // \(currency) amounts have \(currency.exponent) fraction digits and fit n12
        }
        guard amount.minorUnits <= Amount.maximumN12 else { throw .invalidAmount }  // the amount does not fit n12
        return amount
    }

    private static func check(
        _ description: PaymentCardTransactionRequest.TransactionAmountDescription, amount: Amount,
        type: PaymentCardTransactionRequest.TransactionType
    ) throws(PaymentCardReaderSession.ReadError) {
        guard type == .purchase else {
            throw .invalidAmount  // pre-authorizations and surcharges describe purchases only
        }
        switch description {
        case .preauthorization:
            break
        case .preauthorizationAmount(let value):
            let part = try Self.amount(value, amount.currency)
            guard part.minorUnits > 0, part.minorUnits <= amount.minorUnits else {
                throw .invalidAmount  // the pre-authorization amount must be greater than zero and at most the amount
            }
        case .surchargeAmount(let value):
            let part = try Self.amount(value, amount.currency)
            guard part.minorUnits > 0, part.minorUnits < amount.minorUnits else {
                throw .invalidAmount  // the surcharge must be greater than zero and less than the amount
            }
        case .surchargePercent(let percent):
            var scaled = percent * 100
            var whole = Decimal()
            NSDecimalRound(&whole, &scaled, 0, .plain)
            guard percent >= 1, percent <= 100, whole == scaled else {
                throw .invalidAmount  // the surcharge percentage is 1 to 100 with at most two fraction digits
            }
        }
    }
}
