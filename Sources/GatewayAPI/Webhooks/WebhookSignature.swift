public import Crypto
public import Foundation

/// The signature on every webhook delivery, in the `Contactless-Signature` header: `t=<unix seconds>,v1=<hex>`,
/// where v1 is HMAC-SHA256 under the endpoint's signing secret of `"<t>." + body`.
///
/// To verify, a receiver recomputes v1 over the raw body it received, compares in constant time, and refuses a `t`
/// more than five minutes from its clock (``verify(header:body:secret:now:tolerance:)`` does all three).
public enum WebhookSignature {
    /// The header's name.
    public static let headerName = "Contactless-Signature"
    /// How far `t` may be from the receiver's clock by default.
    public static let defaultTolerance: TimeInterval = 300

    /// The header for `body` signed at `timestamp` under `secret`.
    public static func header(body: some DataProtocol, secret: String, timestamp: Date) -> String {
        let t = Int(timestamp.timeIntervalSince1970)
        return "t=\(t),v1=\(signature(body: body, secret: secret, t: t))"
    }

    /// Whether `header` signs `body` under `secret` within `tolerance` of `now`.
    public static func verify(
        header: String, body: some DataProtocol, secret: String, now: Date = Date(),
        tolerance: TimeInterval = defaultTolerance
    ) -> Bool {
        var t: Int?
        var signatures: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { t = Int(pair[1]) } else if pair[0] == "v1" { signatures.append(pair[1]) }
        }
        guard let t, abs(now.timeIntervalSince1970 - Double(t)) <= tolerance else { return false }
        let expected = Array(signature(body: body, secret: secret, t: t).utf8)
        return signatures.contains { ConstantTime.equal(Array($0.utf8), expected) }
    }

    private static func signature(body: some DataProtocol, secret: String, t: Int) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Data(secret.utf8)))
        hmac.update(data: Data("\(t).".utf8))
        hmac.update(data: Data(body))
        return hmac.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
