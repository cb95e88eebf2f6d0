import EMV

/// Typed access to the arguments of one request, by the Python parameter names.
///
/// Every lookup marks its field as used, so that after the operation ran `checkAllUsed()` can reject arguments the
/// operation does not take — as Python rejects an unexpected keyword argument.
///
/// It reads the parser's buffers through pointers (no reference counting per lookup), so it is valid only while the
/// operation it was made for runs.
public struct BatchArguments {
    private let fields: UnsafeBufferPointer<JSONField>
    private let text: UnsafeBufferPointer<UInt8>
    private let pool: ArgumentPool
    private var used: UInt64
    /// Where the next lookup starts: requests usually list arguments in the order operations read them.
    private var hint = 0

    /// Wraps a parsed request's fields and text; the fields at `reserved` and `alsoReserved` (`op`, `id`) count
    /// as used.
    init(
        fields: UnsafeBufferPointer<JSONField>,
        text: UnsafeBufferPointer<UInt8>,
        pool: ArgumentPool,
        reserved: Int,
        alsoReserved: Int?
    ) throws(BatchError) {
        guard fields.count <= ArgumentPool.slots else {
            throw BatchError(.unsupportedValue, "more than \(ArgumentPool.slots) fields")
        }
        self.fields = fields
        self.text = text
        self.pool = pool
        used = 1 << UInt64(reserved)
        if let alsoReserved { used |= 1 << UInt64(alsoReserved) }
    }

    /// The random source for operations with random fill (ISO 9564 formats 3 and 4).
    var random: BufferedSystemRandom { pool.random }

    /// A required byte string given as hex.
    public mutating func bytes(_ name: StaticString) throws(BatchError) -> [UInt8] {
        guard let bytes = try optionalBytes(name) else { throw Self.missing(name) }
        return bytes
    }

    /// An optional byte string given as hex; absent or null gives nil.
    public mutating func optionalBytes(_ name: StaticString) throws(BatchError) -> [UInt8]? {
        guard let (index, digits) = try optionalHexDigits(name) else { return nil }
        guard let bytes = pool.decodeHex(digits, slot: index) else { throw Self.notHex(name) }
        return bytes
    }

    /// An empty concatenation of hex arguments (see ``appendBytes(_:to:)``), valid while the operation runs.
    public func concatenation() -> HexConcatenation { HexConcatenation(pool.concatenationSpace) }

    /// A required byte string given as hex, decoded onto the end of `concatenation` rather than into an array of
    /// its own (for operations that concatenate their arguments); returns where in it the bytes landed.
    public mutating func appendBytes(
        _ name: StaticString, to concatenation: inout HexConcatenation
    ) throws(BatchError) -> Range<Int> {
        guard let (_, digits) = try optionalHexDigits(name) else { throw Self.missing(name) }
        guard let range = concatenation.append(hex: digits) else { throw Self.notHex(name) }
        return range
    }

    /// The hex text of a string argument; absent or null gives nil.
    private mutating func optionalHexDigits(
        _ name: StaticString
    ) throws(BatchError) -> (index: Int, digits: UnsafeBufferPointer<UInt8>)? {
        guard let (index, value) = lookup(name) else { return nil }
        switch value {
        case .null: return nil
        case .string(let range): return (index, UnsafeBufferPointer(rebasing: text[range]))
        default: throw Self.wrongType(name, expected: "a string", got: value)
        }
    }

    /// A required string.
    public mutating func string(_ name: StaticString) throws(BatchError) -> String {
        guard let string = try optionalString(name) else { throw Self.missing(name) }
        return string
    }

    /// An optional string; absent or null gives nil.
    public mutating func optionalString(_ name: StaticString) throws(BatchError) -> String? {
        guard let range = try optionalStringRange(name) else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
    }

    /// A required integer.
    public mutating func int(_ name: StaticString) throws(BatchError) -> Int {
        guard let value = try optionalInt(name) else { throw Self.missing(name) }
        return value
    }

    /// An optional integer; absent or null gives nil.
    public mutating func optionalInt(_ name: StaticString) throws(BatchError) -> Int? {
        switch lookup(name)?.value {
        case nil, .null?: return nil
        case .number(let value?)?: return value
        case let value?: throw Self.wrongType(name, expected: "an integer", got: value)
        }
    }

    /// Throws for the first field no lookup asked for.
    public func checkAllUsed() throws(BatchError) {
        for (index, field) in fields.enumerated() where used & (1 << UInt64(index)) == 0 {
            let name = String(decoding: UnsafeBufferPointer(rebasing: text[field.key]), as: UTF8.self)
            throw BatchError(.unexpectedArgument, "unexpected argument `\(name)`")
        }
    }

    private mutating func optionalStringRange(_ name: StaticString) throws(BatchError) -> Range<Int>? {
        switch lookup(name)?.value {
        case nil, .null?: return nil
        case .string(let range)?: return range
        case let value?: throw Self.wrongType(name, expected: "a string", got: value)
        }
    }

    private mutating func lookup(_ name: StaticString) -> (index: Int, value: JSONValue)? {
        guard let index = FlatJSONParser.index(of: name, in: fields, text: text, from: hint) else { return nil }
        hint = index + 1
        used |= 1 << UInt64(index)
        return (index, fields[index].value)
    }

    private static func missing(_ name: StaticString) -> BatchError {
        BatchError(.missingArgument, "missing argument `\(name)`")
    }

    private static func notHex(_ name: StaticString) -> BatchError {
        BatchError(.invalidArgument, "argument `\(name)` is not an even number of hex digits")
    }

    private static func wrongType(_ name: StaticString, expected: String, got value: JSONValue) -> BatchError {
        BatchError(.invalidArgument, "argument `\(name)` must be \(expected), not \(value.typeName)")
    }
}

/// Byte buffers reused from line to line for hex arguments, one per field position.
///
/// A fresh `[UInt8]` costs tens of nanoseconds (allocation and generic metadata lookup), and a cryptogram request
/// has over a dozen hex fields; once an operation is done with its arguments their buffers are uniquely
/// referenced again, so the next line decodes into them without allocating.
///
/// A struct of pointers to memory that its processor owns and frees (``deallocate()``): arguments hold one, and
/// holding a class instance instead cost a retain and a release on every request line.
struct ArgumentPool {
    /// The most fields a request may have.
    static let slots = 64

    /// One buffer per slot. A pointer rather than an array of arrays: writing through a `let` pointer needs no
    /// exclusivity check and no uniqueness check of an outer array per argument.
    private let buffers: UnsafeMutablePointer<[UInt8]>
    /// Space for ``HexConcatenation``s; replaced by a larger one when a concatenation outgrows it.
    let concatenationSpace: UnsafeMutablePointer<UnsafeMutableBufferPointer<UInt8>>
    private let randomSource: Unmanaged<BufferedSystemRandom>

    init() {
        buffers = .allocate(capacity: Self.slots)
        buffers.initialize(repeating: [], count: Self.slots)
        concatenationSpace = .allocate(capacity: 1)
        concatenationSpace.initialize(to: .allocate(capacity: 1024))
        randomSource = .passRetained(BufferedSystemRandom())
    }

    /// Frees the buffers; the pool must not be used afterwards.
    func deallocate() {
        buffers.deinitialize(count: Self.slots)
        buffers.deallocate()
        concatenationSpace.pointee.deallocate()
        concatenationSpace.deallocate()
        randomSource.release()
    }

    /// The processor's random source, kept here with its other per-thread state.
    var random: BufferedSystemRandom { randomSource.takeUnretainedValue() }

    /// Decodes hex digits (either case, no separators) into the buffer of field `slot`; nil for an odd count or
    /// a non-hex character.
    ///
    /// The buffer is resized in place and decoded into: decoding into scratch space and copying from there
    /// (`removeAll(keepingCapacity:)`, `append(contentsOf:)`) cost two passes of the array's generic range
    /// replacement per argument.
    func decodeHex(_ digits: UnsafeBufferPointer<UInt8>, slot: Int) -> [UInt8]? {
        guard digits.count % 2 == 0 else { return nil }
        let count = digits.count / 2
        let buffer = buffers + slot
        let current = buffer.pointee.count
        if current > count {
            buffer.pointee.removeLast(current - count)
        } else if current < count {
            // Any bytes will do, as they are decoded over: the digits are at hand and append with one copy
            // (zeros from `repeatElement` were appended one at a time).
            buffer.pointee.append(contentsOf: UnsafeBufferPointer(rebasing: digits[..<(count - current)]))
        }
        guard buffer.pointee.withUnsafeMutableBufferPointer({ [UInt8].decodeHex(digits, into: $0) }) else {
            return nil
        }
        return buffer.pointee
    }
}

/// Hex arguments decoded one after another into space the argument pool keeps from line to line, made into one
/// array at the end: appending each to an array cost the array's generic append (its uniqueness and capacity
/// checks and a copy) per argument, eleven times on every cryptogram line.
public struct HexConcatenation {
    private let space: UnsafeMutablePointer<UnsafeMutableBufferPointer<UInt8>>
    /// How many bytes were appended.
    private(set) var count = 0

    init(_ space: UnsafeMutablePointer<UnsafeMutableBufferPointer<UInt8>>) {
        self.space = space
    }

    /// Decodes `digits` after the bytes so far and returns where they landed; nil, appending nothing, for an odd
    /// count or a non-hex character.
    mutating func append(hex digits: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard digits.count % 2 == 0 else { return nil }
        let end = count + digits.count / 2
        if space.pointee.count < end {
            let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(end, 2 * space.pointee.count))
            _ = larger.initialize(from: space.pointee[..<count])
            space.pointee.deallocate()
            space.pointee = larger
        }
        guard [UInt8].decodeHex(digits, into: UnsafeMutableBufferPointer(rebasing: space.pointee[count..<end])) else {
            return nil
        }
        defer { count = end }
        return count..<end
    }

    /// The bytes appended so far, as an array.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(rebasing: space.pointee[..<count])) }
}
