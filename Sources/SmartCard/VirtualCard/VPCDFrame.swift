import EMV

/// One message from vpcd to the card it hosts: a control message, or the bytes of a command APDU.
///
/// On the wire every message, both ways, is a frame: a 2-byte big-endian length, then that many bytes. A one-byte
/// frame is a control message; anything longer is a command APDU, which the card answers with one frame holding the
/// response APDU. Of the control messages only get ATR is answered (with the ATR).
public enum VPCDFrame: Hashable, Sendable {
    /// `00`: the reader cut the card's power.
    case powerOff
    /// `01`: the reader powered the card.
    case powerOn
    /// `02`: the reader reset the card (warm reset).
    case reset
    /// `04`: the reader asks for the answer to reset.
    case getATR
    /// Two or more bytes: a command APDU as vpcd received it from the application, not yet parsed.
    case command([UInt8])

    /// The most bytes one frame can carry: its length field has 16 bits.
    public static let maximumPayloadLength = Int(UInt16.max)

    /// Interprets the payload of one frame.
    ///
    /// - Throws: ``VPCDError/Code/emptyFrame`` for no bytes, ``VPCDError/Code/unknownControlCode`` for a one-byte
    ///   message other than 00, 01, 02 and 04 (03 was vpcd's "get ATR" draft and is unused).
    public init(payload: some Collection<UInt8>) throws(VPCDError) {
        guard let first = payload.first else {
            throw VPCDError(code: .emptyFrame, message: "a frame of length 0 carries no message")
        }
        guard payload.count == 1 else {
            self = .command(Array(payload))
            return
        }
        switch first {
        case 0x00: self = .powerOff
        case 0x01: self = .powerOn
        case 0x02: self = .reset
        case 0x04: self = .getATR
        default:
            throw VPCDError(
                code: .unknownControlCode, message: "control message \([first].hexString) is not one vpcd defines")
        }
    }

    /// The frame's payload: the control byte, or the command's bytes.
    public var payload: [UInt8] {
        switch self {
        case .powerOff: [0x00]
        case .powerOn: [0x01]
        case .reset: [0x02]
        case .getATR: [0x04]
        case .command(let bytes): bytes
        }
    }

    /// The frame as vpcd writes it: length, then payload (what a fake vpcd in a test sends).
    public var encoded: [UInt8] { Self.frame(payload) }

    /// Puts the 2-byte big-endian length in front of `payload`, which must be at most ``maximumPayloadLength``
    /// bytes (callers check; a longer payload is cut, never trapped on).
    static func frame(_ payload: [UInt8]) -> [UInt8] {
        let length = min(payload.count, maximumPayloadLength)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length + 2)
        bytes.append(UInt8(length >> 8))
        bytes.append(UInt8(truncatingIfNeeded: length))
        bytes.append(contentsOf: payload.prefix(length))
        return bytes
    }
}
