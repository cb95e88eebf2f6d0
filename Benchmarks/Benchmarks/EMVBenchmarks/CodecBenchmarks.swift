import Benchmark
import EMV

/// The terminal's codec work per tap: decoding the card's GET PROCESSING OPTIONS response and building the PDOL
/// data for the command.
func codecBenchmarks() {
    // The real GPO response of a Lloyds Visa Debit card, 201 bytes from Vectors/tlv-real-cards.json: a format 2
    // template (77) holding what a qVSDC card with fDDA returns — AIP, AFL, track 2, IAD, ARQC, CID, ATC, a 128-byte
    // SDAD and the CTQ. One parse gives zero-copy nodes for all of them.
    Benchmark("TLV parse: real Visa GPO response (201 bytes)") { (benchmark, response: [UInt8]) in
        for _ in benchmark.scaledIterations {
            blackHole(try TLV.parseOne(response, rules: .strict))
        }
    } setup: {
        let response = try realCardResponse(card: "Lloyds Bank Visa Debit", step: "GET PROCESSING OPTIONS")
        // pyemv 1.5.0's decoding of the same bytes, stored in the vector file.
        let expected: [Tag] = [0x82, 0x94, 0x57, 0x9F10, 0x9F26, 0x9F27, 0x9F36, 0x9F4B, 0x9F6C]
        let template = try TLV.parseOne(response)
        guard template.tag == .responseMessageTemplateFormat2, template.children.map(\.tag) == expected else {
            throw BenchmarkFixtures.SetupError("the GPO response did not decode as pyemv decodes it")
        }
        return response
    }

    // The same card's PDOL (tag 9F38 of its SELECT response, 9 entries, 33 bytes of data) filled from a terminal's
    // transaction values, as Kernel 3 builds the GPO command data.
    Benchmark("DOL build: real Visa PDOL (9 entries, 33 bytes)") { (benchmark, input: PDOLInput) in
        for _ in benchmark.scaledIterations {
            blackHole(input.pdol.relatedData(from: input.terminal, kernel: .c3))
        }
    } setup: {
        let select = try realCardResponse(card: "Lloyds Bank Visa Debit", step: "SELECT A0000000031010")
        guard let pdolValue = try TLV.parse(select).first(.pdol)?.value else {
            throw BenchmarkFixtures.SetupError("the SELECT response has no PDOL")
        }
        let pdol = try DataObjectList(pdolValue)
        let terminal: [Tag: [UInt8]] = [
            0x9F66: try BenchmarkFixtures.bytes("36004000"),  // TTQ
            0x9F02: try BenchmarkFixtures.bytes("000000001000"),  // amount, authorised: 10.00
            0x9F03: try BenchmarkFixtures.bytes("000000000000"),
            0x9F1A: try BenchmarkFixtures.bytes("0826"),  // United Kingdom
            0x95: try BenchmarkFixtures.bytes("0000000000"),
            0x5F2A: try BenchmarkFixtures.bytes("0826"),  // GBP
            0x9A: try BenchmarkFixtures.bytes("250506"),
            0x9C: try BenchmarkFixtures.bytes("00"),
            0x9F37: try BenchmarkFixtures.bytes("12345678"),
        ]
        // Every value has its entry's length, so the data is the values in PDOL order.
        let expected = "360040000000000010000000000000000826000000000008262505060012345678"
        try BenchmarkFixtures.expect(pdol.relatedData(from: terminal, kernel: .c3), expected, "PDOL data")
        return PDOLInput(pdol: pdol, terminal: terminal)
    }
}

/// A PDOL and the terminal's values for it.
private struct PDOLInput {
    var pdol: DataObjectList
    var terminal: [Tag: [UInt8]]
}

/// One response of Vectors/tlv-real-cards.json.
private func realCardResponse(card: String, step: String) throws -> [UInt8] {
    struct File: Decodable {
        struct Card: Decodable {
            var card: String
            var responses: [Response]
        }
        struct Response: Decodable {
            var step: String
            var hex: String
        }
        var cards: [Card]
    }
    let file = try BenchmarkFixtures.vector("tlv-real-cards", as: File.self)
    guard let response = file.cards.first(where: { $0.card == card })?.responses.first(where: { $0.step == step })
    else { throw BenchmarkFixtures.SetupError("tlv-real-cards.json has no \(step) for \(card)") }
    return try BenchmarkFixtures.bytes(response.hex)
}
