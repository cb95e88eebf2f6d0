/// A response APDU (ISO/IEC 7816-4, 5.1): response data followed by the two status bytes SW1 SW2.
public struct ResponseAPDU: Hashable, Sendable, CustomStringConvertible {
    /// The response data, possibly empty.
    public let data: [UInt8]
    /// The trailer SW1 SW2.
    public let statusWord: StatusWord

    /// Creates a response from its parts.
    public init(data: [UInt8] = [], statusWord: StatusWord) {
        self.data = data
        self.statusWord = statusWord
    }

    /// Parses a response: everything but the last two bytes is data.
    ///
    /// - Throws: ``APDUError/Code/truncatedStatusWord`` when fewer than two bytes are given.
    public init(bytes input: some Collection<UInt8>) throws {
        let b = Array(input)
        guard b.count >= 2 else {
            throw APDUError(
                code: .truncatedStatusWord, offset: b.count,
                message: "a response needs the 2 status word bytes, got \(b.count)")
        }
        self.init(data: Array(b[..<(b.count - 2)]), statusWord: StatusWord(sw1: b[b.count - 2], sw2: b[b.count - 1]))
    }

    /// Whether the status word reports normal processing (see ``StatusWord/isSuccess``).
    public var isSuccess: Bool { statusWord.isSuccess }

    /// The encoded response: data then SW1 SW2.
    public var bytes: [UInt8] { data + [statusWord.sw1, statusWord.sw2] }

    /// Data length and status word; never the data, which may hold card data.
    public var description: String { "ResponseAPDU(\(data.count) data bytes, SW \(statusWord))" }
}
