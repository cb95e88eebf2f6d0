import EMV

/// The values a terminal sent as DOL related data (PDOL, CDOL1, CDOL2, UDOL), split by the card's list.
struct TerminalData: Sendable {
    private var values: [Tag: [UInt8]] = [:]

    /// Splits `data`, whose length the caller has checked against `list`.
    init(list: DataObjectList?, data: [UInt8]) {
        for (tag, value) in list?.values(in: data) ?? [] { values[tag] = Array(value) }
    }

    /// Adds `other`'s values, which win where both have a tag.
    mutating func merge(_ other: TerminalData) {
        values.merge(other.values) { _, new in new }
    }

    /// The value sent for `tag`; zeros of `length` bytes when the list did not ask for it.
    func value(_ tag: Tag, length: Int) -> [UInt8] {
        values[tag] ?? [UInt8](repeating: 0, count: length)
    }

    /// The value sent for `tag`, nil when the list did not ask for it.
    subscript(tag: Tag) -> [UInt8]? { values[tag] }

    /// Amount, authorised (9F02, n12) in minor units; `Int.max` when the digits are malformed, so a bad amount
    /// exceeds every limit.
    var amountAuthorised: Int {
        var amount = 0
        for byte in value(.amountAuthorised, length: 6) {
            guard byte >> 4 <= 9, byte & 0x0F <= 9 else { return .max }
            amount = amount * 100 + Int(byte >> 4) * 10 + Int(byte & 0x0F)
        }
        return amount
    }

    /// The ten common elements of the application cryptogram data; the IAD is set by the caller.
    func cryptogramData(aip: [UInt8], atc: [UInt8]) -> CryptogramData {
        CryptogramData(
            amountAuthorized: value(.amountAuthorised, length: 6),
            amountOther: value(.amountOther, length: 6),
            terminalCountryCode: value(.terminalCountryCode, length: 2),
            terminalVerificationResults: value(.terminalVerificationResults, length: 5),
            transactionCurrencyCode: value(.transactionCurrencyCode, length: 2),
            transactionDate: value(.transactionDate, length: 3),
            transactionType: value(.transactionType, length: 1),
            unpredictableNumber: value(.unpredictableNumber, length: 4),
            applicationInterchangeProfile: aip,
            applicationTransactionCounter: atc)
    }
}
