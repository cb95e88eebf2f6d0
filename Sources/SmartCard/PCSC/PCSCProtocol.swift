/// The transmission protocol a PC/SC connection negotiated with the card (`SCARD_PROTOCOL_*`).
public struct PCSCProtocol: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The `SCARD_PROTOCOL_*` bits.
    public let rawValue: UInt32

    /// Wraps protocol bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// SCARD_PROTOCOL_T0: character protocol; the reader side handles 61XX and 6CXX (EMV Book 1, 9.3.1).
    public static let t0 = PCSCProtocol(rawValue: 1)
    /// SCARD_PROTOCOL_T1: block protocol; APDUs travel whole.
    public static let t1 = PCSCProtocol(rawValue: 2)
    /// SCARD_PROTOCOL_RAW.
    public static let raw = PCSCProtocol(rawValue: 4)
    /// T=0 or T=1, whichever the card and reader agree on.
    public static let any: PCSCProtocol = [.t0, .t1]

    /// `T=0`, `T=1`, `raw` or the bits.
    public var description: String {
        switch self {
        case .t0: "T=0"
        case .t1: "T=1"
        case .raw: "raw"
        case .any: "T=0 or T=1"
        default: "protocol bits \(rawValue)"
        }
    }
}
