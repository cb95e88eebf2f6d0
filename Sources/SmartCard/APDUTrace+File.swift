public import Foundation

extension APDUTrace {
    /// Reads and parses a trace file (UTF-8 text, see ``APDUTrace``).
    ///
    /// - Throws: the file system's error when the file cannot be read, ``APDUTraceError`` when a line is malformed.
    public init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        try self.init(text: String(decoding: data, as: UTF8.self))
    }
}
