/// The result lines of a batch, written straight into one growing byte buffer that the caller flushes in large
/// writes.
public struct BatchOutput: Sendable {
    /// The bytes written so far and not yet taken by `take()`.
    public private(set) var bytes: [UInt8] = []

    /// Makes an output buffer with room for `capacity` bytes.
    public init(capacity: Int = 1 << 20) {
        bytes.reserveCapacity(capacity)
    }

    /// Returns the buffered bytes and empties the buffer, keeping its capacity.
    public mutating func take() -> [UInt8] {
        let taken = bytes
        bytes.removeAll(keepingCapacity: true)
        return taken
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes `{"id":<id>,"result":<value>}` and a newline.
    mutating func writeResult(_ value: BatchValue, id: UnsafeBufferPointer<UInt8>?) {
        open(id: id)
        append("\"result\":")
        switch value {
        case .bytes(let data):
            appendHexString(data)
        case .string(let string):
            appendString(string.utf8)
        }
        append("}\n")
    }

    /// Writes `{"id":<id>,"error":{"code":…,"message":…}}` and a newline.
    mutating func writeError(_ error: BatchError, id: UnsafeBufferPointer<UInt8>?) {
        open(id: id)
        append("\"error\":{\"code\":")
        appendString(error.code.description.utf8)
        append(",\"message\":")
        appendString(error.message.utf8)
        append("}}\n")
    }

    private mutating func open(id: UnsafeBufferPointer<UInt8>?) {
        bytes.append(UInt8(ascii: "{"))
        if let id {
            append("\"id\":")
            bytes.append(contentsOf: id)
            bytes.append(UInt8(ascii: ","))
        }
    }

    private mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private mutating func appendHexString(_ data: [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        Self.hexDigits.withUnsafeBufferPointer { digits in
            for byte in data {
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0x0F)])
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a JSON string, escaping quotes, backslashes and control characters.
    private mutating func appendString(_ text: some Collection<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x0A:
                append("\\n")
            case 0x0D:
                append("\\r")
            case 0x09:
                append("\\t")
            case ..<0x20:
                append("\\u00")
                Self.hexDigits.withUnsafeBufferPointer { digits in
                    bytes.append(digits[Int(byte >> 4)])
                    bytes.append(digits[Int(byte & 0x0F)])
                }
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// The value an operation returns: bytes (written as upper-case hex) or text (a PIN, a CVC3).
public enum BatchValue: Sendable, Hashable {
    /// Binary data, written as an upper-case hex string.
    case bytes([UInt8])
    /// Text, written as a JSON string.
    case string(String)
}
