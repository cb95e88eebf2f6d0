import EMV
import Foundation
import ReaderKernel
import SmartCard
import Testing

/// The recorded APDUs of two real, expired debit cards (Tests/EMVTests/Vectors/tlv-real-cards.json, provenance in the
/// file): a Lloyds Visa Debit (Kernel 3, fDDA with the production CA key 09) and an AAB Debit Mastercard (Kernel 2,
/// CA key 05), and the published CA keys (ca-public-keys.json).
enum RealCards {
    struct File: Decodable {
        struct Card: Decodable {
            struct Step: Decodable {
                let step: String
                let command: String
                let hex: String
            }
            let card: String
            let responses: [Step]
        }
        let cards: [Card]
    }

    static let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../EMVTests/Vectors")

    static func card(_ name: String) throws -> [File.Card.Step] {
        let data = try Data(contentsOf: vectors.appendingPathComponent("tlv-real-cards.json"))
        let file = try JSONDecoder().decode(File.self, from: data)
        return try #require(file.cards.first { $0.card.contains(name) }).responses
    }

    static func caKeys() throws -> CAPublicKeyList {
        try CAPublicKeyList(contentsOf: vectors.appendingPathComponent("ca-public-keys.json"))
    }

    /// The card's response (data + 9000) to the recorded step whose name starts with `step`.
    static func response(_ steps: [File.Card.Step], _ step: String) throws -> String {
        try #require(steps.first { $0.step.hasPrefix(step) }).hex + "9000"
    }

    /// The Lloyds Visa Debit as a script. The GPO answer was made for UN 38393031, 10.00 EUR on 2023-03-01, so the
    /// fDDA signature verifies only for that transaction.
    static func lloydsVisa(replacing replacements: [String: String] = [:]) throws -> [ScriptedChannel.Rule] {
        let steps = try card("Lloyds")
        func answer(_ step: String) throws -> String {
            var hex = try response(steps, step)
            for (old, new) in replacements { hex = hex.replacingOccurrences(of: old, with: new) }
            return hex
        }
        return [
            .ppse(try answer("SELECT PPSE")),
            .select("A0000000031010", try answer("SELECT A0000000031010")),
            .ins(0xA8, try answer("GET PROCESSING OPTIONS")),
        ] + (try (3...6).map { .record(sfi: 2, UInt8($0), try answer("READ RECORD SFI 2 record \($0)")) })
    }

    /// The AAB Debit Mastercard as a script, up to its records; the GENERATE AC answer is the test's.
    static func aabMastercard(generateAC: String) throws -> [ScriptedChannel.Rule] {
        let steps = try card("Mastercard")
        return [
            .ppse(try response(steps, "SELECT PPSE")),
            .select("A0000000041010", try response(steps, "SELECT A0000000041010")),
            .ins(0xA8, try response(steps, "GET PROCESSING OPTIONS")),
            .record(sfi: 1, 1, try response(steps, "READ RECORD SFI 1 record 1")),
            .record(sfi: 2, 1, try response(steps, "READ RECORD SFI 2 record 1")),
            .record(sfi: 4, 1, try response(steps, "READ RECORD SFI 4 record 1")),
            .record(sfi: 4, 2, try response(steps, "READ RECORD SFI 4 record 2")),
            .ins(0xAE, generateAC),
        ]
    }

    /// No CA keys (an empty list cannot fail to build).
    static var emptyKeyList: CAPublicKeyList {
        guard let list = try? CAPublicKeyList() else { preconditionFailure("an empty key list has no duplicates") }
        return list
    }

    /// The recorded transaction's moment: 2023-03-01 12:00 UTC.
    static let recordedDate = Date(timeIntervalSince1970: 1_677_672_000)

    /// A kernel with the real CA keys, pinned to the recorded date and unpredictable number.
    static func kernel(
        unpredictableNumber: [UInt8] = [0x38, 0x39, 0x30, 0x31],
        configure: (inout ReaderConfiguration) -> Void = { _ in }
    ) throws -> ReaderKernel {
        var configuration = ReaderConfiguration.default(caPublicKeys: try caKeys())
        configure(&configuration)
        return ReaderKernel(
            configuration: configuration, clock: { recordedDate }, timeZone: TimeZone(identifier: "UTC") ?? .current,
            unpredictableNumbers: { unpredictableNumber })
    }

    static func euros(_ minorUnits: Int) -> TransactionRequest {
        TransactionRequest(amount: Amount(minorUnits: minorUnits, currency: .eur))
    }
}
