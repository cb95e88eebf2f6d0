import Foundation

/// A terminal's set of CA public keys, looked up by RID and index, with a JSON file format.
///
/// The file is a JSON array of objects, every byte string in hex:
///
/// ```json
/// [{"rid": "A000000003", "index": "94", "modulus": "ACD2…", "exponent": "03",
///   "checksum": "C4A3C43CCF87327D136B804160E47D43B60E6E0F", "expiry": "2031-12-31"}]
/// ```
///
/// `checksum` and `expiry` (`YYYY-MM-DD`) are optional; a checksum that is present must equal
/// SHA-1(RID | index | modulus | exponent) or loading fails. The array may also be wrapped as
/// `{"provenance": "…", "keys": [ … ]}` to record where the keys come from; other fields are ignored.
public struct CAPublicKeyList: Sendable {
    /// The keys, in file order.
    public private(set) var keys: [CAPublicKey]
    /// Where the keys come from, written back when saving.
    public var provenance: String?

    /// Creates a list.
    ///
    /// - Throws: ``ODAError/duplicateCAKey`` when two keys share a RID and index.
    public init(_ keys: [CAPublicKey] = [], provenance: String? = nil) throws {
        self.keys = []
        self.provenance = provenance
        for key in keys { try insert(key) }
    }

    /// Loads a list from JSON data in the format above.
    ///
    /// - Throws: ``ODAError/malformedCAKeyList`` for bad JSON, a missing field or bad hex;
    ///   ``ODAError/caKeyChecksumMismatch``, ``ODAError/invalidKey`` or ``ODAError/duplicateCAKey`` for bad keys.
    public init(jsonData: Data) throws {
        let decoder = JSONDecoder()
        let file: File
        do {
            // The first significant byte tells the two shapes apart, so errors speak of the right one.
            let first = jsonData.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            if first == UInt8(ascii: "[") {
                file = File(provenance: nil, keys: try decoder.decode([Entry].self, from: jsonData))
            } else {
                file = try decoder.decode(File.self, from: jsonData)
            }
        } catch let error as DecodingError {
            throw ODAError(.malformedCAKeyList, "CA key list is not in the documented shape: \(Self.describe(error))")
        } catch {
            throw ODAError(.malformedCAKeyList, "CA key list is not valid JSON")
        }
        try self.init(
            file.keys.enumerated().map { try $0.element.key(position: $0.offset) }, provenance: file.provenance)
    }

    /// Loads a list from a JSON file.
    ///
    /// - Throws: ``ODAError/malformedCAKeyList`` when the file cannot be read, and the errors of ``init(jsonData:)``.
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ODAError(.malformedCAKeyList, "cannot read CA key list file \(url.lastPathComponent)")
        }
        try self.init(jsonData: data)
    }

    /// Adds a key.
    ///
    /// - Throws: ``ODAError/duplicateCAKey`` when the list already has a key with this RID and index.
    public mutating func insert(_ key: CAPublicKey) throws {
        guard !keys.contains(where: { $0.rid == key.rid && $0.index == key.index }) else {
            throw ODAError(
                .duplicateCAKey, "CA key \(key.rid.hexString) index \([key.index].hexString) is listed twice")
        }
        keys.append(key)
    }

    /// The key with this RID and index.
    ///
    /// - Throws: ``ODAError/caKeyNotFound`` when there is none.
    public func key(rid: [UInt8], index: UInt8) throws -> CAPublicKey {
        guard let key = keys.first(where: { $0.rid == rid && $0.index == index }) else {
            throw ODAError(.caKeyNotFound, "no CA key \(rid.hexString) index \([index].hexString)")
        }
        return key
    }

    /// The list as JSON: the bare array, or the wrapped form when ``provenance`` is set. Keys are sorted so files
    /// diff well.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let entries = keys.map(Entry.init)
        if let provenance {
            return try encoder.encode(File(provenance: provenance, keys: entries))
        }
        return try encoder.encode(entries)
    }

    /// Writes the list as JSON to a file, atomically.
    public func write(to url: URL) throws {
        try jsonData().write(to: url, options: .atomic)
    }

    private struct File: Codable {
        var provenance: String?
        var keys: [Entry]
    }

    private struct Entry: Codable {
        var rid: String
        var index: String
        var modulus: String
        var exponent: String
        var checksum: String?
        var expiry: String?

        init(_ key: CAPublicKey) {
            rid = key.rid.hexString
            index = [key.index].hexString
            modulus = key.key.modulus.hexString
            exponent = key.key.exponent.hexString
            checksum = key.checksum.hexString
            expiry = key.expiry.map { CalendarDay($0).iso }
        }

        func key(position: Int) throws -> CAPublicKey {
            func hex(_ text: String, _ field: String) throws -> [UInt8] {
                guard let bytes = [UInt8](hex: text) else {
                    throw ODAError(.malformedCAKeyList, "entry \(position): \(field) is not hex")
                }
                return bytes
            }
            let indexBytes = try hex(index, "index")
            guard indexBytes.count == 1 else {
                throw ODAError(.malformedCAKeyList, "entry \(position): index must be one byte")
            }
            var expiryDate: Date?
            if let expiry {
                guard let day = CalendarDay(iso: expiry) else {
                    throw ODAError(.malformedCAKeyList, "entry \(position): expiry is not YYYY-MM-DD")
                }
                expiryDate = day.date
            }
            return try CAPublicKey(
                rid: hex(rid, "rid"),
                index: indexBytes[0],
                modulus: hex(modulus, "modulus"),
                exponent: hex(exponent, "exponent"),
                expiry: expiryDate,
                checksum: checksum.map { try hex($0, "checksum") }
            )
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            "missing \(key.stringValue) at \(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            "\(context.debugDescription) at \(path(context))"
        @unknown default:
            "undecodable"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
