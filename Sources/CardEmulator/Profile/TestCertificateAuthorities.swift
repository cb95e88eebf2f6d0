public import EMV
public import Foundation

/// The shape of `Profiles/test-ca.json`: the test CAs with a note on where they come from.
public struct TestCertificateAuthorities: Codable, Sendable {
    /// How the keys were made and what they are for.
    public var provenance: String
    /// One CA per RID.
    public var authorities: [TestCertificateAuthority]

    /// Creates the file's contents.
    public init(provenance: String, authorities: [TestCertificateAuthority]) {
        self.provenance = provenance
        self.authorities = authorities
    }

    /// Reads the file.
    public init(jsonData: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: jsonData)
    }

    /// Readable JSON: pretty-printed, keys sorted.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
