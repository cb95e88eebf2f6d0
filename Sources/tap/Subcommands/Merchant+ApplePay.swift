import ApplePay
import ArgumentParser
import Foundation
import Gateway

extension Tap.MerchantCommand {
    /// `tap merchant applepay-cert`: registers a merchant's Apple Pay payment processing certificate and key.
    struct ApplePayCert: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "applepay-cert",
            abstract: "Register an Apple Pay payment processing certificate and its private key for a merchant.",
            discussion: """
                The certificate (PEM) and its private key (PEM: PKCS #8, SEC 1 or PKCS #1) must match. The key is \
                stored encrypted under the gateway's data key (keys.json in --data-dir); a merchant may register \
                several certificates while it rotates them, and tokens name theirs by publicKeyHash.
                """)

        @Option(help: "The merchant id (mer_…).") var merchant: String
        @Option(help: "The payment processing certificate, PEM.") var cert: String
        @Option(help: "Its private key, PEM.") var key: String
        @Option(
            help: "The Apple merchant identifier, when the certificate lacks Apple's extension (test certificates).")
        var merchantIdentifier: String?
        @OptionGroup var store: GatewayStoreOptions

        func run() async throws {
            let certificatePEM: String
            let keyPEM: String
            do {
                certificatePEM = try String(contentsOfFile: cert, encoding: .utf8)
                keyPEM = try String(contentsOfFile: key, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read --cert or --key")
            }
            let keys = try GatewayKeys.loadOrCreate(directory: URL(fileURLWithPath: store.dataDir, isDirectory: true))
            let registration = try await store.withDatabase { database in
                do {
                    return try await ApplePayIdentityRepository(database: database, keys: keys).register(
                        merchantId: merchant, certificatePEM: certificatePEM, privateKeyPEM: keyPEM,
                        merchantIdentifier: merchantIdentifier, actor: "cli")
                } catch let error as DomainError {
                    throw CommandFailure(error.message)
                } catch let error as ApplePayError {
                    throw CommandFailure("not a payment processing identity: \(error.code): \(error.message)")
                }
            }
            if store.json { return try store.printJSON(registration) }
            print(
                "Registered Apple Pay certificate \(registration.id) for \(registration.merchantId) "
                    + "(publicKeyHash \(registration.publicKeyHash)).")
        }
    }
}
