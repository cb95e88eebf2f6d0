public import EMV

/// An application the reader accepts: an AID, the kernel that processes it and the terminal's application version.
public struct SupportedApplication: Sendable, Hashable, Codable {
    /// The terminal AID (9F06), e.g. `A0000000031010`.
    public var aid: [UInt8]
    /// The kernel that processes the application (Book B kernel identifier: 2 Mastercard, 3 Visa).
    public var kernelID: UInt8
    /// The terminal's Application Version Number (9F09), 2 bytes.
    public var applicationVersion: [UInt8]
    /// Whether a card ADF name that merely starts with ``aid`` matches (partial selection, EMV Book 1 12.3.1).
    public var allowsPartialMatch: Bool

    /// Creates an entry.
    public init(
        aid: [UInt8], kernelID: UInt8, applicationVersion: [UInt8] = [0x00, 0x02], allowsPartialMatch: Bool = true
    ) {
        self.aid = aid
        self.kernelID = kernelID
        self.applicationVersion = applicationVersion
        self.allowsPartialMatch = allowsPartialMatch
    }

    /// Visa credit/debit (A0000000031010) on Kernel 3.
    public static let visa = SupportedApplication(
        aid: [0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10], kernelID: 3, applicationVersion: [0x00, 0x8C])
    /// Mastercard credit/debit (A0000000041010) on Kernel 2.
    public static let mastercard = SupportedApplication(
        aid: [0xA0, 0x00, 0x00, 0x00, 0x04, 0x10, 0x10], kernelID: 2, applicationVersion: [0x00, 0x02])

    /// The kernel as the EMV core names it.
    public var kernel: Kernel { ReaderConfiguration.kernel(id: kernelID) }

    /// Whether the card's ADF name selects this entry.
    public func matches(adfName: [UInt8]) -> Bool {
        adfName == aid || (allowsPartialMatch && adfName.count > aid.count && adfName.starts(with: aid))
    }

    private enum CodingKeys: String, CodingKey {
        case aid, kernelID, applicationVersion, allowsPartialMatch
    }

    /// Decodes `{"aid": "A0000000031010", "kernelID": 3, "applicationVersion": "008C", "allowsPartialMatch": true}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        aid = try container.decodeHex(.aid)
        kernelID = try container.decode(UInt8.self, forKey: .kernelID)
        applicationVersion = try container.decodeHex(.applicationVersion)
        allowsPartialMatch = try container.decodeIfPresent(Bool.self, forKey: .allowsPartialMatch) ?? true
    }

    /// Encodes byte strings as hex.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeHex(aid, forKey: .aid)
        try container.encode(kernelID, forKey: .kernelID)
        try container.encodeHex(applicationVersion, forKey: .applicationVersion)
        try container.encode(allowsPartialMatch, forKey: .allowsPartialMatch)
    }
}
