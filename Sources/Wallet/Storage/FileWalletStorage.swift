public import Foundation

/// A wallet storage in a directory: one file per record, written atomically, named after the record.
public struct FileWalletStorage: WalletStorage {
    /// The directory holding the records.
    public let directory: URL

    /// A storage in `directory`, created when missing.
    /// - Throws: the file system's error when the directory cannot be created.
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The record's file; names are the wallet's own (letters, digits, `.` and `-`), never a path.
    private func url(_ name: String) -> URL {
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" })
        return directory.appendingPathComponent(safe, isDirectory: false)
    }

    /// Reads the record's file; nil when it does not exist.
    public func data(named name: String) throws -> Data? {
        let file = url(name)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return try Data(contentsOf: file)
    }

    /// Writes the record's file atomically.
    public func write(_ data: Data, named name: String) throws {
        try data.write(to: url(name), options: .atomic)
    }

    /// Deletes the record's file.
    public func remove(named name: String) throws {
        let file = url(name)
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        try FileManager.default.removeItem(at: file)
    }

    /// The files in the directory.
    public func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
    }
}
