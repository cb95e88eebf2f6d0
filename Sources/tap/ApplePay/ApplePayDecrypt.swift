import ApplePay
import ArgumentParser
import EMV
import Foundation

extension Tap {
    /// `tap applepay decrypt`: verifies and decrypts one Apple Pay token with a merchant's payment processing
    /// certificate and key, printing the payment with the account number and cryptogram masked unless `--reveal`.
    struct ApplePayDecrypt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decrypt",
            abstract: "Verify and decrypt an Apple Pay payment token.",
            discussion: """
                Runs every check of a server: the CMS signature, Apple's marker extensions, the chain to Apple Root \
                CA - G3 (or --root), the certificates' validity and the signing time within 5 minutes of now (or \
                --at), then decrypts (EC_v1 or RSA_v1). A refused token exits 1 naming the ApplePayError code.
                """
        )

        @Option(help: "The token JSON: a whole PKPaymentToken or its paymentData object.")
        var token: String

        @Option(help: "The merchant's payment processing certificate (PEM).")
        var cert: String

        @Option(help: "The certificate's private key (PEM: PKCS #8, SEC 1 or PKCS #1).")
        var key: String

        @Option(help: "Check the signing time against this ISO 8601 time instead of now (for old tokens).")
        var at: String?

        @Option(help: "Trust this root certificate (PEM) instead of Apple Root CA - G3; repeat for several.")
        var root: [String] = []

        @Option(help: "The merchant identifier, when the certificate lacks Apple's merchant identifier extension.")
        var merchantIdentifier: String?

        @Option(help: "The request's applicationData (UTF-8 text), to check the header's hash of it.")
        var applicationData: String?

        @Flag(help: "Print JSON instead of text.")
        var json = false

        @Flag(help: "Show the account number and cryptogram unmasked.")
        var reveal = false

        func run() async throws {
            let now = try at.map(Self.parseTime) ?? Date()
            do {
                let identity = try MerchantIdentity(
                    certificatePEM: Self.read(cert), privateKeyPEM: Self.read(key),
                    merchantIdentifier: merchantIdentifier)
                let roots = try root.map { path in
                    do {
                        return try AppleRootCA.certificate(pemEncoded: Self.read(path))
                    } catch {
                        throw ValidationError("--root \(path) is not a PEM certificate")
                    }
                }
                let decryptor = PaymentTokenDecryptor(
                    merchants: [identity], trustedRoots: roots.isEmpty ? [AppleRootCA.g3] : roots, now: { now })
                let verified = try await decryptor.decrypt(
                    json: Data(contentsOf: URL(fileURLWithPath: token)),
                    applicationData: applicationData.map { Array($0.utf8) })
                print(json ? try jsonReport(verified) : textReport(verified))
            } catch let error as ApplePayError {
                if json {
                    let report = ["error": ["code": "\(error.code)", "message": error.message]]
                    print(String(decoding: try Self.encoder.encode(report), as: UTF8.self))
                    throw ExitCode.failure
                }
                throw CommandFailure("ApplePayError.\(error.code): \(error.message)")
            }
        }

        private func textReport(_ verified: VerifiedPaymentToken) -> String {
            let payment = verified.payment
            let account = reveal ? payment.accountNumber.digits : payment.accountNumber.masked
            let date = payment.expirationDate
            var lines = [
                "verified   \(verified.version.rawValue), signed \(Self.timeFormatter.string(from: verified.signingTime))",
                "transaction \(verified.transactionIdentifier)",
                "account    \(account), expires \(date.year)-\(Self.twoDigits(date.month))-\(Self.twoDigits(date.day))",
                "amount     \(payment.amount) (\(payment.amount.minorUnits) minor units, "
                    + "currency \(payment.amount.currency.numericCode))",
                "device     \(payment.deviceManufacturerIdentifier)",
            ]
            if let name = payment.cardholderName { lines.append("cardholder \(reveal ? name : "(present)")") }
            switch payment.credential {
            case .threeDSecure(let cryptogram, let eci):
                lines.append("type       3DSecure, cryptogram \(shown(cryptogram))\(eci.map { ", ECI \($0)" } ?? "")")
            case .emv(let emvData, let pinData):
                lines.append("type       EMV, data \(shown(emvData))\(pinData.map { ", PIN data \(shown($0))" } ?? "")")
            }
            if let merchantToken = payment.merchantTokenIdentifier { lines.append("merchant token \(merchantToken)") }
            for response in payment.authenticationResponses {
                lines.append(
                    "also for   \(response.merchantIdentifier ?? "?"): \(shown(response.authenticationData))")
            }
            return lines.joined(separator: "\n")
        }

        private func jsonReport(_ verified: VerifiedPaymentToken) throws -> String {
            var payload = verified.payload
            if !reveal {
                payload.applicationPrimaryAccountNumber = verified.payment.accountNumber.masked
                payload.cardholderName = payload.cardholderName.map { _ in "(present)" }
                payload.paymentData.onlinePaymentCryptogram = payload.paymentData.onlinePaymentCryptogram.map(mask)
                payload.paymentData.emvData = payload.paymentData.emvData.map(mask)
                payload.paymentData.encryptedPINData = payload.paymentData.encryptedPINData.map(mask)
                payload.authenticationResponses = payload.authenticationResponses?.map { response in
                    var masked = response
                    masked.authenticationData = mask(response.authenticationData)
                    return masked
                }
            }
            let report = Report(
                version: verified.version.rawValue, transactionId: verified.transactionIdentifier,
                signingTime: Self.timeFormatter.string(from: verified.signingTime),
                publicKeyHash: verified.publicKeyHash, payload: payload)
            return String(decoding: try Self.encoder.encode(report), as: UTF8.self)
        }

        private struct Report: Encodable {
            let version: String
            let transactionId: String
            let signingTime: String
            let publicKeyHash: String
            let payload: PaymentPayload
        }

        private func shown(_ bytes: [UInt8]) -> String {
            reveal ? Data(bytes).base64EncodedString() : "(\(bytes.count) bytes)"
        }

        private func mask(_ text: String) -> String { "(\(text.count) characters)" }

        private static func read(_ path: String) throws -> String {
            do {
                return try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read \(path)")
            }
        }

        private static func parseTime(_ text: String) throws -> Date {
            let formatter = ISO8601DateFormatter()
            if let date = formatter.date(from: text) { return date }
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard let date = formatter.date(from: text) else {
                throw ValidationError("--at \(text) is not an ISO 8601 time such as 2021-09-01T19:03:06Z")
            }
            return date
        }

        private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

        private static var timeFormatter: ISO8601DateFormatter { ISO8601DateFormatter() }

        private static var encoder: JSONEncoder {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            return encoder
        }
    }
}
