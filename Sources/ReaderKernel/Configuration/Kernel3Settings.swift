public import EMV

/// Kernel 3 (Visa) settings: the Terminal Transaction Qualifiers the reader starts from (EMV Contactless Book C-3).
///
/// The kernel adds the per-transaction bits itself: "CVM required" (byte 2 bit 7) at or over the CVM required limit
/// and "online cryptogram required" (byte 2 bit 8) over the floor limit.
public struct Kernel3Settings: Sendable, Hashable, Codable {
    /// The base TTQ (9F66).
    public var terminalTransactionQualifiers: TerminalTransactionQualifiers

    /// Creates settings.
    public init(terminalTransactionQualifiers: TerminalTransactionQualifiers) {
        self.terminalTransactionQualifiers = terminalTransactionQualifiers
    }

    /// An online-capable phone reader: EMV mode (qVSDC), online PIN, signature, ODA for online authorisations and
    /// consumer device CVM supported; no contact chip (TTQ `27 00 40 00`).
    public static let phoneReader = Kernel3Settings(
        terminalTransactionQualifiers: [
            .emvModeSupported, .onlinePINSupported, .signatureSupported, .odaForOnlineAuthorizationsSupported,
            .consumerDeviceCVMSupported,
        ])

    private enum CodingKeys: String, CodingKey {
        case terminalTransactionQualifiers
    }

    /// Decodes `{"terminalTransactionQualifiers": "36004000"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let bytes = try container.decodeHex(.terminalTransactionQualifiers)
        do {
            terminalTransactionQualifiers = try TerminalTransactionQualifiers(bytes: bytes)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .terminalTransactionQualifiers, in: container, debugDescription: "a TTQ has 4 bytes")
        }
    }

    /// Encodes the TTQ as hex.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeHex(terminalTransactionQualifiers.bytes, forKey: .terminalTransactionQualifiers)
    }
}
