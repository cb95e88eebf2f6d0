import ApplePay
import Foundation
import Testing

/// One of the real, Apple-signed tokens in Fixtures/, with its merchant identity and signing time.
struct RealTokenFixture: CustomTestStringConvertible, Sendable {
    let folder: String
    /// The CMS signing time, read with `openssl cms -cmsout -print` (see SOURCES.md for the day).
    let signingTime: Date

    static let gala = RealTokenFixture(folder: "gala-2021", signingTime: date("2021-09-01T19:03:06Z"))
    static let sepuka = RealTokenFixture(folder: "sepuka-2019", signingTime: date("2019-06-07T08:39:15Z"))
    static let all = [gala, sepuka]

    var testDescription: String { folder }

    func url(_ name: String, _ ext: String) throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures/\(folder)/\(name)", withExtension: ext))
    }

    var json: Data { get throws { try Data(contentsOf: url("token", "json")) } }

    var paymentData: PaymentData { get throws { try JSONDecoder().decode(PaymentData.self, from: json) } }

    var identity: MerchantIdentity {
        get throws {
            try MerchantIdentity(
                certificatePEM: String(contentsOf: url("certificate", "pem"), encoding: .utf8),
                privateKeyPEM: String(contentsOf: url("private_key", "pem"), encoding: .utf8))
        }
    }

    /// A decryptor for this token with the clock `offset` seconds after its signing time.
    func decryptor(
        offset: TimeInterval = 0, merchants: [MerchantIdentity]? = nil,
        replayStore: (any TransactionReplayStore)? = nil
    ) throws -> PaymentTokenDecryptor {
        let now = signingTime.addingTimeInterval(offset)
        return PaymentTokenDecryptor(
            merchants: try merchants ?? [identity], replayStore: replayStore, now: { now })
    }

    static func date(_ text: String) -> Date {
        // The literals above are valid ISO 8601; a typo fails every test that uses it.
        ISO8601DateFormatter().date(from: text) ?? .distantPast
    }
}
