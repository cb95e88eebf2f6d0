import ApplePay
import Crypto
import EMV
import Foundation
import X509

/// Which token a benchmark decrypts.
enum TokenSource: CaseIterable {
    /// A token of the test token service, EC_v1 (P-256 merchant key), 3DSecure.
    case testEC
    /// A token of the test token service, RSA_v1 (RSA-2048 merchant key), 3DSecure.
    case testRSA
    /// Apple's real EC_v1 token of Tests/ApplePayTests/Fixtures/gala-2021, under Apple Root CA - G3.
    case realApple

    var title: String {
        switch self {
        case .testEC: "EC_v1 (test PKI)"
        case .testRSA: "RSA_v1 (test PKI)"
        case .realApple: "EC_v1 (real Apple token)"
        }
    }
}

/// A token with the decryptor configured for it: the merchant key, the root, the clock at its signing time, no
/// replay store (so it can be decrypted over and over).
struct BenchmarkToken: Sendable {
    /// A setup step found something wrong: the benchmark would measure the wrong thing.
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    let paymentData: PaymentData
    let merchant: MerchantIdentity
    let decryptor: PaymentTokenDecryptor
    /// The known last four digits and amount of the payload.
    let expected: (lastFour: String, minorUnits: Int)

    /// Tests/ApplePayTests/Fixtures in the checkout this file was compiled from.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ApplePayBenchmarks
        .deletingLastPathComponent()  // Benchmarks (targets)
        .deletingLastPathComponent()  // Benchmarks (package)
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("Tests/ApplePayTests/Fixtures")

    init(_ source: TokenSource) async throws {
        switch source {
        case .testEC, .testRSA:
            let signingTime = Date(timeIntervalSince1970: 1_772_366_400)
            let pki = try TestPaymentPKI(
                validity: DateInterval(start: signingTime.addingTimeInterval(-86_400), duration: 365 * 86_400)
            )
            merchant = try pki.makeMerchantIdentity(
                merchantIdentifier: "merchant.com.example.bench", key: source == .testEC ? .p256 : .rsa2048
            )
            let service = PaymentTokenService(pki: pki, clock: { signingTime })
            guard let currency = Currency(alphabeticCode: "USD") else { throw SetupError(description: "no USD") }
            let token = try await service.token(
                for: TokenRequest(
                    merchantIdentifier: "merchant.com.example.bench",
                    amount: Amount(minorUnits: 2_500, currency: currency)
                ),
                account: DeviceAccount(
                    accountNumber: try PAN("4761739001010010"), expiry: try ExpiryDate(year: 2028, month: 2),
                    network: "Visa"
                ),
                merchantCertificate: merchant.certificate,
                cryptogramSource: { _ in .threeDSecure(onlinePaymentCryptogram: Array(1...20), eciIndicator: "7") }
            )
            paymentData = token.paymentData
            decryptor = PaymentTokenDecryptor(
                merchants: [merchant], trustedRoots: [pki.root], replayStore: ForgetfulReplayStore(), now: { signingTime }
            )
            expected = ("0010", 2_500)
        case .realApple:
            let folder = Self.fixtures.appendingPathComponent("gala-2021")
            paymentData = try JSONDecoder().decode(
                PaymentData.self, from: Data(contentsOf: folder.appendingPathComponent("token.json"))
            )
            merchant = try MerchantIdentity(
                certificatePEM: String(contentsOf: folder.appendingPathComponent("certificate.pem"), encoding: .utf8),
                privateKeyPEM: String(contentsOf: folder.appendingPathComponent("private_key.pem"), encoding: .utf8)
            )
            let signingTime = Date(timeIntervalSince1970: 1_630_522_986)  // 2021-09-01T19:03:06Z, its signingTime
            decryptor = PaymentTokenDecryptor(merchants: [merchant], replayStore: ForgetfulReplayStore(), now: { signingTime })
            expected = ("1169", 100)  // SOURCES.md's known answers
        }
        let payment = try await verifyAndDecrypt().payment
        guard payment.accountNumber.lastFour == expected.lastFour, payment.amount.minorUnits == expected.minorUnits
        else { throw SetupError(description: "the token did not decrypt to its known answer") }
    }

    /// The whole server-side work for one token.
    func verifyAndDecrypt() async throws -> VerifiedPaymentToken {
        try await decryptor.decrypt(paymentData)
    }
}

/// Accepts every transactionId: the benchmark verifies the same token over and over, so a real store would refuse
/// all but the first (an in-memory store's check is one dictionary insert, outside what is measured here).
struct ForgetfulReplayStore: TransactionReplayStore {
    func record(transactionId: String, expiresAt: Date) async throws {}
}
