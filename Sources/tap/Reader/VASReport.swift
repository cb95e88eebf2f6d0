import Crypto
import EMV
import Foundation
import ValueAddedServices

/// What `tap read --vas` prints of the tap's VAS step: the wallet that answered and each merchant's entry, the
/// cryptogram (encrypted to the merchant, so not secret) and, with the merchant's key, the pass's message.
struct VASReport: Encodable {
    /// One merchant asked.
    struct Entry: Encodable {
        var passTypeIdentifier: String
        /// The wallet's status word in hex, e.g. `9000`.
        var status: String
        /// Its meaning, e.g. `success`, `dataNotFound`.
        var statusName: String
        /// The VAS cryptogram in hex, when the status is success.
        var cryptogram: String?
        /// The pass's message, when a merchant key opened the cryptogram.
        var message: String?
        /// When the wallet made the cryptogram (ISO 8601), when opened.
        var timestamp: String?
        /// Why the merchant key did not open it.
        var decryptionError: String?
    }

    /// The wallet's label (`ApplePay`); nil when the card has no VAS application.
    var wallet: String?
    /// The VAS mode the reader asked for.
    var mode: String
    var entries: [Entry]

    init(_ outcome: VASReader.Outcome, mode: VASMode, decryptor: VASDecryptor?) {
        wallet = outcome.wallet?.label
        self.mode = "\(mode)"
        entries = outcome.entries.map { entry in
            var report = Entry(
                passTypeIdentifier: entry.passTypeIdentifier, status: [entry.statusWord.sw1, entry.statusWord.sw2].hexString,
                statusName: Self.name(entry.statusWord), cryptogram: entry.cryptogram?.hexString)
            if let decryptor, let cryptogram = entry.cryptogram {
                do {
                    let opened = try decryptor.decrypt(cryptogram, passTypeIdentifier: entry.passTypeIdentifier)
                    report.message = opened.message
                    report.timestamp = ISO8601DateFormatter().string(from: opened.timestamp)
                } catch {
                    report.decryptionError = "\(error)"
                }
            }
            return report
        }
    }

    static func name(_ statusWord: StatusWord) -> String {
        switch statusWord {
        case VASStatus.success: "success"
        case VASStatus.dataNotFound: "dataNotFound"
        case VASStatus.dataNotActivated: "dataNotActivated"
        case VASStatus.userInterventionRequired: "userInterventionRequired"
        case VASStatus.incorrectData: "incorrectData"
        case VASStatus.wrongParameters: "wrongParameters"
        case VASStatus.wrongLength: "wrongLCField"
        default: "unknown"
        }
    }

    func text(style: ConsoleStyle) -> String {
        var lines = [style.bold("Loyalty (Apple VAS, \(mode))")]
        guard let wallet else {
            lines.append("  no VAS application: the card in the field is not a wallet")
            return lines.joined(separator: "\n")
        }
        lines.append("  wallet \(wallet)")
        for entry in entries {
            var line = "  \(entry.passTypeIdentifier): \(entry.statusName) (\(entry.status))"
            if let message = entry.message {
                line += ", message \"\(message)\" made \(entry.timestamp ?? "?")"
            } else if let error = entry.decryptionError {
                line += ", not opened: \(error)"
            } else if let cryptogram = entry.cryptogram {
                line += ", cryptogram \(cryptogram.count / 2) bytes"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

/// A merchant VAS key file: a P-256 private key in PEM (SEC 1 or PKCS #8).
func loadVASKey(_ path: String) throws -> P256.KeyAgreement.PrivateKey {
    let text: String
    do {
        text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
        throw CommandFailure("cannot read the VAS key '\(path)': \(error.localizedDescription)")
    }
    do {
        return try P256.KeyAgreement.PrivateKey(pemRepresentation: text)
    } catch {
        throw CommandFailure("'\(path)' is not a P-256 private key in PEM")
    }
}
