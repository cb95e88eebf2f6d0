/// The result lines of a batch, written straight into one growing byte buffer that the caller flushes in large
/// writes.
///
/// Each line's worst-case size is reserved once and then written without per-byte checks: appending to an
/// `Array` byte by byte (a uniqueness and capacity check each time) cost more than the hex encoding itself.
public final class BatchOutput {
    private let storage: ByteBuffer

    /// Makes an output buffer with room for `capacity` bytes.
    public init(capacity: Int = 1 << 20) {
        storage = ByteBuffer(capacity: capacity)
    }

    /// The bytes written so far, as an array (a copy; for tests and small outputs).
    public var bytes: [UInt8] { Array(storage.buffer) }

    /// The number of bytes written so far.
    public var count: Int { storage.count }

    /// Returns the buffered bytes and empties the buffer, keeping its capacity.
    public func take() -> [UInt8] {
        defer { storage.removeAll() }
        return bytes
    }

    /// Hands the bytes written so far to `write`, then empties the buffer, keeping its capacity (and the bytes,
    /// when `write` throws).
    func flush(to write: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        try write(storage.buffer)
        storage.removeAll()
    }

    /// Writes `{"id":<id>,"result":<value>}` and a newline.
    func writeResult(_ value: BatchValue, id: UnsafeBufferPointer<UInt8>?) {
        switch value {
        case .bytes(let data):
            data.withUnsafeBufferPointer { writeHexResult($0, id: id) }
        case .string(var string):
            string.withUTF8 { text in
                storage.reserve(text.count * 6 + (id?.count ?? 0) + 32)
                open(id: id)
                storage.append("\"result\":")
                appendString(text)
                storage.append("}\n")
            }
        }
    }

    /// Writes `{"id":<id>,"result":"<hex of bytes>"}` and a newline.
    private func writeHexResult(_ bytes: UnsafeBufferPointer<UInt8>, id: UnsafeBufferPointer<UInt8>?) {
        storage.reserve(bytes.count * 2 + (id?.count ?? 0) + 32)
        open(id: id)
        storage.append("\"result\":\"")
        storage.appendHexUnchecked(bytes)
        storage.append("\"}\n")
    }

    /// Writes `{"id":<id>,"error":{"code":…,"message":…}}` and a newline.
    func writeError(_ error: BatchError, id: UnsafeBufferPointer<UInt8>?) {
        var code = error.code.description
        var message = error.message
        code.withUTF8 { code in
            message.withUTF8 { message in
                storage.reserve((code.count + message.count) * 6 + (id?.count ?? 0) + 64)
                open(id: id)
                storage.append("\"error\":{\"code\":")
                appendString(code)
                storage.append(",\"message\":")
                appendString(message)
                storage.append("}}\n")
            }
        }
    }

    /// `{` and the echoed id; the caller has reserved room.
    private func open(id: UnsafeBufferPointer<UInt8>?) {
        storage.appendUnchecked(UInt8(ascii: "{"))
        if let id {
            storage.append("\"id\":")
            storage.append(id)
            storage.appendUnchecked(UInt8(ascii: ","))
        }
    }

    @inline(__always)
    fileprivate static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") - 10 + nibble
    }

    /// Writes a JSON string, escaping quotes, backslashes and control characters; the caller has reserved six
    /// bytes per input byte.
    private func appendString(_ text: UnsafeBufferPointer<UInt8>) {
        storage.appendUnchecked(UInt8(ascii: "\""))
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                storage.appendUnchecked(UInt8(ascii: "\\"))
                storage.appendUnchecked(byte)
            case 0x0A:
                storage.append("\\n")
            case 0x0D:
                storage.append("\\r")
            case 0x09:
                storage.append("\\t")
            case ..<0x20:
                storage.append("\\u00")
                storage.appendUnchecked(Self.hexDigit(byte >> 4))
                storage.appendUnchecked(Self.hexDigit(byte & 0x0F))
            default:
                storage.appendUnchecked(byte)
            }
        }
        storage.appendUnchecked(UInt8(ascii: "\""))
    }
}

/// The value an operation returns: bytes (written as upper-case hex) or text (a PIN, a CVC3).
public enum BatchValue: Sendable, Hashable {
    /// Binary data, written as an upper-case hex string.
    case bytes([UInt8])
    /// Text, written as a JSON string.
    case string(String)
}

/// A growable byte buffer with unchecked appends after an explicit reservation.
private final class ByteBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends one byte into reserved room.
    @inline(__always)
    func appendUnchecked(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Appends `bytes` as upper-case hex digits into reserved room (two per byte).
    func appendHexUnchecked(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Through a local pointer: a class's `count` would be loaded and stored again for every digit.
        var out = base + count
        for byte in bytes {
            out[0] = BatchOutput.hexDigit(byte >> 4)
            out[1] = BatchOutput.hexDigit(byte & 0x0F)
            out += 2
        }
        count += 2 * bytes.count
    }

    /// Appends bytes, reserving room for them.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        if let source = bytes.baseAddress { (base + count).update(from: source, count: bytes.count) }
        count += bytes.count
    }

    /// Appends an ASCII literal, reserving room for it.
    func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append($0) }
    }

    func removeAll() { count = 0 }
}
