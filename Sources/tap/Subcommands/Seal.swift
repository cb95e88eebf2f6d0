import ArgumentParser
import EMV
import Foundation
import GatewayAPI
import Issuer
import TestMode

extension Tap {
    /// Taps a test card on the loopback and seals each read to a gateway, as a prepared reader does: card data for
    /// testing a merchant's server or the gateway's API with curl or an API fuzzer (test mode).
    struct Seal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "seal",
            abstract: "Tap a test card on the loopback and print each read sealed to a gateway (test mode).",
            discussion: """
                Reads the provisioning a device got from `POST /v1/devices/{id}/prepare` (the NDJSON stream as \
                saved, or its last line), taps the test card --count times with the reader kernel, and prints one \
                sealed read per line: the `cardData` of `POST /v1/payments`, for the provisioned merchant and \
                device, valid for 60 seconds. Each tap spends the card's next ATC from a fresh card, and the \
                issuer refuses an ATC it has seen, so use another card for the next run: --card takes visa or \
                mastercard (the approving test cards), load-N (the N-th of the 128 load-test cards, Visa first) or \
                a test card's PAN.
                """)

        @Option(help: ArgumentHelp("The prepare answer (NDJSON) or its provisioning.", valueName: "file"))
        var provisioning: String
        @Option(help: "The test card: visa, mastercard, load-N or a test card's PAN.") var card = "visa"
        @Option(help: "Amount in major units, e.g. 12.34.") var amount = "10.00"
        @Option(help: "ISO 4217 currency, alphabetic or numeric.") var currency = "EUR"
        @Option(help: "How many taps.") var count = 1

        func validate() throws {
            guard (1...1_000).contains(count) else { throw ValidationError("--count must be from 1 to 1000") }
        }

        func run() async throws {
            let amount = try Amount(argument: amount, currency: currency)
            let provisioning = try Self.provisioning(from: URL(fileURLWithPath: provisioning))
            let card = try Self.testCard(card)
            let sealer = try provisioning.cardDataKey.sealer()
            let tapper = try TestCardTapper(pan: card.pan, scheme: card.scheme == .visa ? .visa : .mastercard)
            let encoder = JSONEncoder.gatewayAPI
            for _ in 0..<count {
                let sealed = try await tapper.sealedTap(
                    amount: amount, merchantId: provisioning.merchantId, deviceId: provisioning.deviceId,
                    recipient: sealer)
                print(String(decoding: try encoder.encode(sealed), as: UTF8.self))
            }
        }

        /// The provisioning in `file`: a whole prepare answer (its last line carries it), or the provisioning alone.
        static func provisioning(from file: URL) throws -> ReaderProvisioning {
            let data = try Data(contentsOf: file)
            if let last = try? PrepareProgress.lines(in: data).last?.provisioning { return last }
            guard let provisioning = try? JSONDecoder.gatewayAPI.decode(ReaderProvisioning.self, from: data) else {
                throw ValidationError("\(file.path) holds no provisioning")
            }
            return provisioning
        }

        /// The test card `name` stands for.
        static func testCard(_ name: String) throws -> TestCard {
            let card: TestCard?
            switch name {
            case "visa": card = TestCards.card(.approve, .visa)
            case "mastercard": card = TestCards.card(.approve, .mastercard)
            case let load where load.hasPrefix("load-"):
                card = Int(load.dropFirst(5)).flatMap {
                    TestCards.loadTestCards.indices.contains($0) ? TestCards.loadTestCards[$0] : nil
                }
            default: card = (TestCards.all + TestCards.loadTestCards).first { $0.pan == name }
            }
            guard let card else { throw ValidationError("--card \(name) is not a test card") }
            return card
        }
    }
}
