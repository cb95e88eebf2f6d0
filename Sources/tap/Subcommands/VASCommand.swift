import ArgumentParser
import Crypto
import EMV
import Foundation
import ValueAddedServices

extension Tap {
    /// Apple VAS (loyalty passes) at the merchant: keys, passes, decryption.
    struct VASCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "vas",
            abstract: "Loyalty passes with Apple VAS: make a merchant key and a pass, decrypt what readers read.",
            discussion: """
                A loyalty pass carries its merchant's P-256 public key; the wallet encrypts the pass's message to it \
                for each reader (ECDH, ANSI X9.63 KDF, AES-256-GCM), and only the merchant's private key opens it. \
                `tap vas key` makes a key, `tap vas pass` a pass.json for `tap emulate --pass`, and `tap vas \
                decrypt` opens a cryptogram that `tap read --vas` or an SDK's VASReadResult returned.
                """,
            subcommands: [Key.self, Pass.self, Decrypt.self])

        struct Key: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Make a merchant VAS key: the private key to a file, the public key (for pass.json) printed.")

            @Option(help: ArgumentHelp("Where to write the private key (PEM, mode 0600).", valueName: "file"))
            var out: String

            func run() throws {
                guard !FileManager.default.fileExists(atPath: out) else {
                    throw CommandFailure("'\(out)' exists: a merchant key is not overwritten")
                }
                let key = P256.KeyAgreement.PrivateKey()
                guard
                    FileManager.default.createFile(
                        atPath: out, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600])
                else { throw CommandFailure("cannot write '\(out)'") }
                print(key.publicKey.derRepresentation.base64EncodedString())
            }
        }

        struct Pass: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print a pass.json with an nfc dictionary, for `tap emulate --pass` and wallets.")

            @Option(
                help: ArgumentHelp(
                    "The merchant's VAS private key (PEM): its public half goes in the pass.", valueName: "file"))
            var key: String
            @Option(help: ArgumentHelp("The pass type identifier.", valueName: "pass.com.example…"))
            var passTypeIdentifier: String
            @Option(help: "The pass's serial number.") var serialNumber: String
            @Option(help: "The message readers receive (a member number), at most 64 bytes.") var message: String
            @Option(help: "The merchant's name.") var organizationName: String?
            @Flag(help: "The wallet asks the customer to authenticate before giving the message.")
            var requiresAuthentication = false

            func run() throws {
                let pass: VASPass
                do {
                    pass = try VASPass(
                        passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, message: message,
                        encryptionKey: try loadVASKey(key).publicKey, organizationName: organizationName,
                        requiresAuthentication: requiresAuthentication)
                } catch let error as VASError {
                    throw CommandFailure(error.message)
                }
                try printJSON(pass)
            }
        }

        struct Decrypt: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Decrypt a VAS cryptogram with the merchant's key and print the pass's message.",
                discussion: """
                    The cryptogram is what GET VAS DATA returned (9F27; ProximityReader's customerVASData), in hex. \
                    It opens only for the pass type it was made for and only within ±300 s of its timestamp (it \
                    carries no reader nonce, so the window is what stops a recorded one being replayed); \
                    --any-time lifts the window for recorded test vectors. Exit status 1 names the failure: \
                    truncatedCryptogram, unknownKeyID, invalidEphemeralKey, authenticationFailed, \
                    timestampOutsideWindow, invalidMessage.
                    """)

            @Option(
                help: ArgumentHelp("The merchant's VAS private key (PEM); repeat while keys rotate.", valueName: "file")
            )
            var key: [String]
            @Option(
                help: ArgumentHelp(
                    "The pass type identifier the cryptogram was read for.", valueName: "pass.com.example…"))
            var passTypeIdentifier: String
            @Flag(help: "Accept any timestamp (recorded test vectors).") var anyTime = false
            @Flag(help: "Print the message and its timestamp as JSON.") var json = false
            @Argument(help: ArgumentHelp("The cryptogram in hex.", valueName: "hex")) var cryptogram: String

            func validate() throws {
                if key.isEmpty { throw ValidationError("--key is required") }
                if [UInt8](hex: cryptogram) == nil { throw ValidationError("the cryptogram must be hex") }
            }

            func run() throws {
                let decryptor = VASDecryptor(
                    keys: try key.map(loadVASKey), timestampWindow: anyTime ? nil : VASDecryptor.defaultTimestampWindow)
                let opened: VASMessage
                do {
                    opened = try decryptor.decrypt(
                        [UInt8](hex: cryptogram) ?? [], passTypeIdentifier: passTypeIdentifier)
                } catch {
                    throw CommandFailure("\(error)")
                }
                let timestamp = ISO8601DateFormatter().string(from: opened.timestamp)
                if json {
                    try printJSON([
                        "message": opened.message, "timestamp": timestamp, "passTypeIdentifier": passTypeIdentifier,
                    ])
                } else {
                    print(opened.message)
                    standardError("made at \(timestamp) for \(passTypeIdentifier)")
                }
            }
        }
    }
}
