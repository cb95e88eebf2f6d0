/// An ISO 8583 message: a message type indicator and fields 2...128, encoded and decoded by a ``Specification``.
///
/// ```swift
/// var request = ISO8583Message(mti: .authorizationRequest)
/// request[.pan] = "4761739001010119"
/// request[.amount] = "000000001000"
/// let bytes = try request.encoded(using: .contactless)
/// let decoded = try ISO8583Message(decoding: bytes, using: .contactless)
/// ```
///
/// Fields live in one array sorted by number (no dictionary), so building, encoding and decoding a message costs a
/// few allocations. `description`, `debugDescription` and the mirror mask field 2 as BIN + last four and redact
/// fields 34, 35, 36, 45, 52 and 55.
public struct ISO8583Message: Hashable, Sendable {
    /// One field: its number and value.
    struct Entry: Hashable, Sendable {
        var number: Int
        var value: ISO8583FieldValue
    }

    /// The message type indicator.
    public var mti: MessageTypeIndicator
    /// The fields, ascending by number.
    var entries: [Entry]

    /// Creates a message with the given fields (numbers 2...128; encoding rejects others).
    public init(mti: MessageTypeIndicator, fields: [Int: ISO8583FieldValue] = [:]) {
        self.mti = mti
        self.entries = fields.map { Entry(number: $0.key, value: $0.value) }.sorted { $0.number < $1.number }
    }

    /// Creates a message from fields already ascending by number.
    init(mti: MessageTypeIndicator, sortedEntries: [Entry]) {
        self.mti = mti
        self.entries = sortedEntries
    }

    /// The value of field `number`; setting nil removes the field.
    public subscript(number: Int) -> ISO8583FieldValue? {
        get {
            let index = position(of: number)
            return index < entries.count && entries[index].number == number ? entries[index].value : nil
        }
        set {
            let index = position(of: number)
            let present = index < entries.count && entries[index].number == number
            switch (newValue, present) {
            case (let value?, true): entries[index].value = value
            case (let value?, false): entries.insert(Entry(number: number, value: value), at: index)
            case (nil, true): entries.remove(at: index)
            case (nil, false): break
            }
        }
    }

    /// The value of a named field.
    public subscript(field: ISO8583Field) -> ISO8583FieldValue? {
        get { self[field.rawValue] }
        set { self[field.rawValue] = newValue }
    }

    /// The numbers of the fields present, ascending.
    public var fieldNumbers: [Int] { entries.map(\.number) }

    /// The first index whose number is not below `number` (binary search over the sorted entries).
    private func position(of number: Int) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].number < number { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
