import EMV
import Foundation
import Testing

/// Shared fixtures for the offline data authentication tests: vector files, the shipped test keys, dates.
enum ODAFixtures {
    /// Midnight UTC of a calendar day.
    static func date(_ year: Int, _ month: Int, _ day: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: month, day: day))!
    }

    /// The keys in oda-test-keys.json, generated once by `ODAKeyGenerationTests.writeShippedKeys`.
    static let keys: ODATestKeys = {
        do {
            return try JSONDecoder().decode(ODATestKeys.self, from: VectorFiles.data("oda-test-keys"))
        } catch {
            fatalError("oda-test-keys.json: \(error)")
        }
    }()
}

/// The shape of oda-test-keys.json.
struct ODATestKeys: Codable {
    var provenance: String
    /// A 1984-bit CA, e = 3, under the non-payment-system RID F000000001, index 01.
    var ca: TestCertificateAuthority
    /// Issuer keys by name: `issuer1984e3` (needs a remainder under the CA), `issuer1152e65537`.
    var issuers: [String: RSAPrivateKey]
    /// ICC keys by name: `icc1024e3`, `icc768e65537`.
    var iccs: [String: RSAPrivateKey]

    func issuer(_ name: String) throws -> RSAPrivateKey { try #require(issuers[name]) }
    func icc(_ name: String) throws -> RSAPrivateKey { try #require(iccs[name]) }
}

extension Array where Element == UInt8 {
    /// Hex literal for tests; fails the test on malformed text.
    init(_ hex: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        self = try #require([UInt8](hex: hex), sourceLocation: sourceLocation)
    }
}
