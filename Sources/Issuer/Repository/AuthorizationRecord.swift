public import Foundation
public import ISO8583

/// An approved authorization as the host keeps it for its reversal: no PAN, no track 2, no cryptogram; the
/// wallet transaction data of a wallet's Mastercard payment, which is the wallet's own, not card data.
public struct AuthorizationRecord: Hashable, Sendable {
    /// STAN, RRN and terminal of the request.
    public let reference: AuthorizationReference
    /// The account's keyed PAN hash.
    public let keyedPAN: KeyedPANHash
    /// The amount held, in the account currency's minor units.
    public let amount: Int
    /// The approval code answered in field 38.
    public let approvalCode: String
    /// When the host approved it.
    public let date: Date
    /// Whether a reversal restored the amount.
    public var reversed: Bool
    /// The wallet transaction data a digitized Mastercard card carried in its IAD (at most 14 bytes); nil when
    /// none.
    public var walletTransactionData: [UInt8]?

    /// Creates a record.
    public init(
        reference: AuthorizationReference, keyedPAN: KeyedPANHash, amount: Int, approvalCode: String, date: Date,
        reversed: Bool = false, walletTransactionData: [UInt8]? = nil
    ) {
        self.reference = reference
        self.keyedPAN = keyedPAN
        self.amount = amount
        self.approvalCode = approvalCode
        self.date = date
        self.reversed = reversed
        self.walletTransactionData = walletTransactionData
    }
}
