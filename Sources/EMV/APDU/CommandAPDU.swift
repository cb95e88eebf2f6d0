/// A command APDU (ISO/IEC 7816-4, 5.1): the header CLA INS P1 P2, optional command data, and the number of
/// response bytes expected.
///
/// The value is the meaning of the command, not one encoding of it: ``bytes`` chooses the short form whenever
/// the data (at most 255 bytes) and the expected length (at most 256) allow, the extended form otherwise.
/// ``init(bytes:)`` accepts both forms for all four cases:
///
/// | case | short form                 | extended form                          |
/// |------|----------------------------|----------------------------------------|
/// | 1    | `CLA INS P1 P2`            |                                        |
/// | 2    | `... Le`                   | `... 00 Le1 Le2`                       |
/// | 3    | `... Lc data`              | `... 00 Lc1 Lc2 data`                  |
/// | 4    | `... Lc data Le`           | `... 00 Lc1 Lc2 data Le1 Le2`          |
///
/// A short Le of 00 means 256 bytes, an extended Le of 00 00 means 65,536.
public struct CommandAPDU: Hashable, Sendable, CustomStringConvertible {
    /// The four cases of ISO/IEC 7816-4: whether the command carries data and whether it expects data back.
    public enum Case: Int, Hashable, Sendable {
        /// No command data, no response data.
        case one = 1
        /// No command data, response data expected.
        case two = 2
        /// Command data, no response data.
        case three = 3
        /// Command data and response data expected.
        case four = 4
    }

    /// The most command data an extended Lc field can announce.
    public static let maximumDataLength = 65_535
    /// The most response data an extended Le field can ask for (encoded as 00 00).
    public static let maximumExpectedLength = 65_536

    /// Class byte.
    public let cla: UInt8
    /// Instruction byte.
    public let ins: UInt8
    /// First parameter byte.
    public let p1: UInt8
    /// Second parameter byte.
    public let p2: UInt8
    /// Command data (Nc = `data.count`, at most 65,535 bytes).
    public let data: [UInt8]
    /// Ne, the maximum number of response data bytes expected: 0 when the command has no Le field
    /// (cases 1 and 3), otherwise 1...65,536.
    public let ne: Int

    /// Creates a command, checking that the data and expected length can be encoded.
    public init(cla: UInt8, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], ne: Int = 0) throws {
        guard data.count <= Self.maximumDataLength else {
            throw APDUError(
                code: .dataTooLong, offset: nil,
                message:
                    "command data of \(data.count) bytes exceeds the \(Self.maximumDataLength) an extended Lc allows")
        }
        guard (0...Self.maximumExpectedLength).contains(ne) else {
            throw APDUError(
                code: .expectedLengthOutOfRange, offset: nil,
                message: "expected length \(ne) is outside 0...\(Self.maximumExpectedLength)")
        }
        self.init(unchecked: cla, ins, p1, p2, data, ne)
    }

    /// For builders and the parser, whose lengths are valid by construction (the package's other protocols' too).
    package init(unchecked cla: UInt8, _ ins: UInt8, _ p1: UInt8, _ p2: UInt8, _ data: [UInt8] = [], _ ne: Int = 0) {
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.ne = ne
    }

    /// The ISO/IEC 7816-4 case of the command.
    public var apduCase: Case {
        switch (data.isEmpty, ne == 0) {
        case (true, true): .one
        case (true, false): .two
        case (false, true): .three
        case (false, false): .four
        }
    }

    /// Whether ``bytes`` uses extended length fields: only when the data or expected length need them.
    public var isExtended: Bool { data.count > 255 || ne > 256 }

    /// The encoded command, short form when possible.
    public var bytes: [UInt8] {
        var out: [UInt8] = [cla, ins, p1, p2]
        out.reserveCapacity(4 + 3 + data.count + 3)
        let extended = isExtended
        if !data.isEmpty {
            if extended {
                out += [0x00, UInt8(data.count >> 8), UInt8(data.count & 0xFF)]
            } else {
                out.append(UInt8(data.count))
            }
            out += data
        }
        if ne > 0 {
            if extended {
                // Case 2E starts the Le field with the 00 marker; in case 4E the extended Lc already did.
                if data.isEmpty { out.append(0x00) }
                let le = ne == Self.maximumExpectedLength ? 0 : ne
                out += [UInt8(le >> 8), UInt8(le & 0xFF)]
            } else {
                out.append(ne == 256 ? 0x00 : UInt8(ne))
            }
        }
        return out
    }

    /// Parses a command in short or extended form.
    ///
    /// - Throws: ``APDUError`` with the offset of the offending field: ``APDUError/Code/truncatedHeader``,
    ///   ``APDUError/Code/lcMismatch``, ``APDUError/Code/shortLcZero``, ``APDUError/Code/extendedLcZero``,
    ///   ``APDUError/Code/truncatedExtendedLe`` or ``APDUError/Code/trailingBytes``.
    public init(bytes input: some Collection<UInt8>) throws {
        let b = Array(input)
        let n = b.count
        guard n >= 4 else {
            throw APDUError(
                code: .truncatedHeader, offset: n, message: "a command needs 4 header bytes, got \(n)")
        }
        let (cla, ins, p1, p2) = (b[0], b[1], b[2], b[3])
        if n == 4 {
            self.init(unchecked: cla, ins, p1, p2)
            return
        }
        if n == 5 {
            self.init(unchecked: cla, ins, p1, p2, [], b[4] == 0 ? 256 : Int(b[4]))
            return
        }
        if b[4] != 0 {
            let (data, ne) = try Self.parseShortBody(b)
            self.init(unchecked: cla, ins, p1, p2, data, ne)
            return
        }
        guard n >= 7 else {
            throw APDUError(
                code: .shortLcZero, offset: 4,
                message: "Lc 00 in short form (or an extended length field cut to 2 bytes)")
        }
        if n == 7 {
            let le = Int(b[5]) << 8 | Int(b[6])
            self.init(unchecked: cla, ins, p1, p2, [], le == 0 ? Self.maximumExpectedLength : le)
            return
        }
        let (data, ne) = try Self.parseExtendedBody(b)
        self.init(unchecked: cla, ins, p1, p2, data, ne)
    }

    /// Cases 3S and 4S: `Lc data [Le]` from offset 4, with Lc (b[4]) nonzero.
    private static func parseShortBody(_ b: [UInt8]) throws -> ([UInt8], Int) {
        let nc = Int(b[4])
        let end = 5 + nc
        guard b.count >= end else {
            throw APDUError(
                code: .lcMismatch, offset: 4,
                message: "Lc announces \(nc) data bytes but \(b.count - 5) follow")
        }
        switch b.count - end {
        case 0:
            return (Array(b[5..<end]), 0)
        case 1:
            return (Array(b[5..<end]), b[end] == 0 ? 256 : Int(b[end]))
        default:
            throw APDUError(
                code: .trailingBytes, offset: end + 1,
                message: "\(b.count - end - 1) bytes after the short Le field")
        }
    }

    /// Cases 3E and 4E: `00 Lc1 Lc2 data [Le1 Le2]` from offset 4, with at least 8 bytes in all.
    private static func parseExtendedBody(_ b: [UInt8]) throws -> ([UInt8], Int) {
        let nc = Int(b[5]) << 8 | Int(b[6])
        guard nc > 0 else {
            throw APDUError(
                code: .extendedLcZero, offset: 4, message: "extended Lc of 00 00 00 announces no data")
        }
        let end = 7 + nc
        guard b.count >= end else {
            throw APDUError(
                code: .lcMismatch, offset: 4,
                message: "extended Lc announces \(nc) data bytes but \(b.count - 7) follow")
        }
        switch b.count - end {
        case 0:
            return (Array(b[7..<end]), 0)
        case 1:
            throw APDUError(
                code: .truncatedExtendedLe, offset: end,
                message: "1 byte after extended-length data; an extended Le needs 2")
        case 2:
            let le = Int(b[end]) << 8 | Int(b[end + 1])
            return (Array(b[7..<end]), le == 0 ? maximumExpectedLength : le)
        default:
            throw APDUError(
                code: .trailingBytes, offset: end + 2,
                message: "\(b.count - end - 2) bytes after the extended Le field")
        }
    }

    /// Header, Nc and Ne in hex and decimal; never the data, which may hold a PIN block or card data.
    public var description: String {
        let header = [cla, ins, p1, p2].hexString
        return "CommandAPDU(\(header), case \(apduCase.rawValue)\(isExtended ? "E" : ""), Nc=\(data.count), Ne=\(ne))"
    }
}
