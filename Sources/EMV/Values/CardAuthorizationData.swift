/// The card data an online authorisation needs, and nothing more: the ICC data for ISO 8583 field 55, the PAN,
/// PAN sequence number, expiry and track 2 equivalent data.
///
/// The reader kernel's outcome carries it, the reader seals it to the PSP (its Codable wire form), and the 0100
/// is built from it. Never shows itself whole: `description`, `debugDescription` and `dump` give the masked PAN
/// (BIN and last four) and sizes only.
public struct CardAuthorizationData: Sendable, Hashable, Codable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// How the card was read.
    public enum Mode: String, Sendable, Hashable, Codable {
        /// EMV mode: a cryptogram in ``CardAuthorizationData/iccData``.
        case emv
        /// Kernel 2 mag-stripe mode: a dynamic CVC3 in the track data, no field 55.
        case magStripe
    }

    /// How the card was read.
    public let mode: Mode
    /// The ICC system related data for field 55: primitive TLVs (9F26, 9F27, 9F10, 9F37, 9F36, 95, 9A, 9C, 9F02,
    /// 9F03, 5F2A, 82, 84, 9F1A, 9F33, 9F34, 9F35, 9F09, 9F6E, ...); empty in mag-stripe mode.
    public let iccData: [UInt8]
    /// The Application PAN.
    public let pan: PAN
    /// The PAN Sequence Number (5F34), when the card has one.
    public let panSequenceNumber: UInt8?
    /// The application's expiry month.
    public let expiry: ExpiryDate?
    /// Track 2 equivalent data (57), or in mag-stripe mode the dynamic track 2 built with the CVC3.
    public let track2: Track2EquivalentData?

    /// Creates authorisation data.
    public init(
        mode: Mode, iccData: [UInt8], pan: PAN, panSequenceNumber: UInt8?, expiry: ExpiryDate?,
        track2: Track2EquivalentData?
    ) {
        self.mode = mode
        self.iccData = iccData
        self.pan = pan
        self.panSequenceNumber = panSequenceNumber
        self.expiry = expiry
        self.track2 = track2
    }

    /// The field 55 data objects, parsed.
    public func iccDataObjects() throws -> TLVNodeCollection { try TLV.parse(iccData) }

    /// The value of one field 55 data object; nil when absent.
    public func iccValue(_ tag: Tag) -> [UInt8]? {
        (try? TLV.parse(iccData))?.first(tag).map { Array($0.value) }
    }

    private enum CodingKeys: String, CodingKey {
        case mode, iccData, pan, panSequenceNumber, expiry, track2
    }

    /// Decodes the wire form: field 55 and track 2 as hex, the PAN as digits, the expiry as YYMM.
    ///
    /// Every value is validated as the EMV types do (Luhn, BCD, lengths); errors never quote the values.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mode = try container.decode(Mode.self, forKey: .mode)
        iccData = try Self.hex(container.decode(String.self, forKey: .iccData), key: .iccData, in: container)
        pan = try Self.validated(.pan, in: container) { try PAN($0.decode(String.self, forKey: .pan)) }
        expiry = try Self.validated(.expiry, in: container) { container in
            try container.decodeIfPresent(String.self, forKey: .expiry).map {
                try ExpiryDate(n4: Self.hex($0, key: .expiry, in: container))
            }
        }
        track2 = try Self.validated(.track2, in: container) { container in
            try container.decodeIfPresent(String.self, forKey: .track2).map {
                try Track2EquivalentData(bytes: Self.hex($0, key: .track2, in: container))
            }
        }
        panSequenceNumber = try container.decodeIfPresent(UInt8.self, forKey: .panSequenceNumber)
    }

    /// Encodes the wire form read by ``init(from:)``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mode, forKey: .mode)
        try container.encode(iccData.hexString, forKey: .iccData)
        try container.encode(pan.digits, forKey: .pan)
        try container.encodeIfPresent(panSequenceNumber, forKey: .panSequenceNumber)
        try container.encodeIfPresent(expiry?.yymm, forKey: .expiry)
        try container.encodeIfPresent(track2?.bytes.hexString, forKey: .track2)
    }

    /// Runs an EMV value's validating init, turning its ``ValueError`` into a `DecodingError` for `key` that names
    /// the kind of fault only (the value error's message is card-data free, but the key and code say enough).
    private static func validated<T>(
        _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>,
        _ body: (KeyedDecodingContainer<CodingKeys>) throws -> T
    ) throws -> T {
        do {
            return try body(container)
        } catch let error as ValueError {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "invalid \(key.stringValue): \(error.code)")
        }
    }

    private static func hex(
        _ text: String, key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>
    ) throws -> [UInt8] {
        guard let bytes = [UInt8](hex: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not hex")
        }
        return bytes
    }

    /// `CardAuthorizationData(emv, PAN 476173******0119, PSN 01, 123 bytes of ICC data)`.
    public var description: String {
        let psn = panSequenceNumber.map { " PSN \([$0].hexString)," } ?? ""
        return "CardAuthorizationData(\(mode.rawValue), PAN \(pan.masked),\(psn) \(iccData.count) bytes of ICC data)"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Reflection shows the masked PAN and sizes only.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["mode": mode.rawValue, "pan": pan.masked, "iccDataLength": iccData.count],
            displayStyle: .struct)
    }
}
