/// Track 2 equivalent data, tag 57 (EMV Book 3, annex A; layout of ISO/IEC 7813 track 2): PAN, separator
/// `D`, expiry `YYMM`, service code, discretionary data, and one `F` nibble when the count is odd.
///
/// Like ``PAN``, it never prints itself: `description`, `debugDescription` and `dump` show the masked PAN and
/// nothing else, since expiry and discretionary data (CVV, PIN verification data) are sensitive too.
public struct Track2EquivalentData: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The most bytes tag 57 may hold.
    public static let maximumByteCount = 19

    /// The primary account number.
    public let pan: PAN
    /// The expiry month.
    public let expiry: ExpiryDate
    private let serviceCodeDigits: [UInt8]
    private let discretionaryDigits: [UInt8]

    /// The three-digit service code (ISO/IEC 7813), e.g. `201`: international, ICC, normal authorisation.
    public var serviceCode: String { BCD.text(serviceCodeDigits) }
    /// The discretionary data digits, possibly empty.
    public var discretionaryData: String { BCD.text(discretionaryDigits) }

    /// Creates track 2 equivalent data from its fields.
    ///
    /// - Throws: ``ValueError/Code/invalidLength`` for a service code that is not 3 digits or a total beyond
    ///   19 bytes, ``ValueError/Code/invalidDigit`` for a non-digit.
    public init(pan: PAN, expiry: ExpiryDate, serviceCode: String, discretionaryData: String = "") throws {
        let service = try BCD.digits(ofText: serviceCode, what: "service code")
        guard service.count == 3 else {
            throw ValueError(code: .invalidLength, message: "a service code has 3 digits, got \(service.count)")
        }
        let discretionary = try BCD.digits(ofText: discretionaryData, what: "discretionary data")
        let nibbles = pan.length + 1 + 4 + 3 + discretionary.count
        guard (nibbles + 1) / 2 <= Self.maximumByteCount else {
            throw ValueError(
                code: .invalidLength, message: "track 2 would take \((nibbles + 1) / 2) bytes; at most 19 fit")
        }
        self.pan = pan
        self.expiry = expiry
        self.serviceCodeDigits = service
        self.discretionaryDigits = discretionary
    }

    /// Parses the value of tag 57.
    ///
    /// - Parameters:
    ///   - bytes: the value, without tag and length.
    ///   - requireLuhn: reject a PAN whose check digit is wrong (the default).
    /// - Throws: ``ValueError`` with the byte offset: ``ValueError/Code/invalidLength`` (too long, or too few
    ///   digits for expiry and service code), ``ValueError/Code/missingSeparator``,
    ///   ``ValueError/Code/invalidDigit``, ``ValueError/Code/invalidPadding``, ``ValueError/Code/invalidDate``,
    ///   or a PAN error. Messages never include the data.
    public init(bytes: some Collection<UInt8>, requireLuhn: Bool = true) throws {
        guard bytes.count <= Self.maximumByteCount else {
            throw ValueError(
                code: .invalidLength, offset: Self.maximumByteCount,
                message: "track 2 equivalent data has at most 19 bytes, got \(bytes.count)")
        }
        let nibbles = BCD.nibbles(bytes)
        guard let separator = nibbles.firstIndex(of: 0x0D) else {
            throw ValueError(code: .missingSeparator, offset: bytes.count, message: "no D separator after the PAN")
        }
        // One F pads an odd number of nibbles to whole bytes; any other F is an error.
        let end = nibbles.last == 0x0F ? nibbles.count - 1 : nibbles.count
        for index in 0..<end where index != separator && nibbles[index] > 9 {
            let code: ValueError.Code = nibbles[index] == 0x0F ? .invalidPadding : .invalidDigit
            throw ValueError(code: code, offset: index / 2, message: "track 2 has a bad nibble in byte \(index / 2)")
        }
        let pan = try PAN(digitValues: Array(nibbles[..<separator]), requireLuhn: requireLuhn)
        let tail = Array(nibbles[(separator + 1)..<end])
        guard tail.count >= 7 else {
            throw ValueError(
                code: .invalidLength, offset: bytes.count,
                message: "track 2 needs 7 digits of expiry and service code after the separator, got \(tail.count)")
        }
        try self.init(
            pan: pan, expiry: ExpiryDate(yymmDigits: Array(tail[0..<4])), serviceCode: BCD.text(tail[4..<7]),
            discretionaryData: BCD.text(tail[7...]))
    }

    /// The value of tag 57: nibbles packed two per byte, F-padded.
    public var bytes: [UInt8] {
        BCD.pack(pan.digitValues + [0x0D] + expiry.yymmDigits + serviceCodeDigits + discretionaryDigits)
    }

    /// The masked PAN only.
    public var description: String { "Track2EquivalentData(PAN \(pan.masked))" }

    /// The masked PAN only.
    public var debugDescription: String { description }

    /// Reflection shows the masked PAN only.
    public var customMirror: Mirror { Mirror(self, children: ["pan": pan.masked], displayStyle: .struct) }
}
