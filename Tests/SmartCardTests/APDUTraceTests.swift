import EMV
import Foundation
import SmartCard
import Testing

@Suite("APDUTrace")
struct APDUTraceTests {
    static let sample = """
        # source: unit test
        # licence: CC0-1.0
        # outcome: online request

        # SELECT PPSE
        00A404000E325041592E5359532E444446303100 : 6F0A840E325041592E53595390 00
        80 a8 00 00 02 83 00 00 : 770A820200009404080101009000   # GPO, no PDOL
        00B2010C00 : 6A83
        # the end
        """

    @Test("Parses header, exchanges, comments, notes and trailer")
    func parse() throws {
        let trace = try APDUTrace(text: Self.sample)
        #expect(trace.header == ["source: unit test", "licence: CC0-1.0", "outcome: online request"])
        #expect(trace.headerValue("Outcome") == "online request")
        #expect(trace.headerValue("kernel") == nil)
        #expect(trace.exchanges.count == 3)
        #expect(trace.exchanges[0].comments == ["SELECT PPSE"])
        #expect(trace.exchanges[0].command == .selectPPSE)
        #expect(trace.exchanges[0].lineNumber == 6)
        #expect(trace.exchanges[1].command == (try CommandAPDU.getProcessingOptions(pdolData: [])))
        #expect(
            trace.exchanges[1].response.data == [
                0x77, 0x0A, 0x82, 0x02, 0x00, 0x00, 0x94, 0x04, 0x08, 0x01, 0x01, 0x00,
            ])
        #expect(trace.exchanges[1].note == "GPO, no PDOL")
        #expect(trace.exchanges[2].response == ResponseAPDU(statusWord: StatusWord(0x6A83)))
        #expect(trace.trailer == ["the end"])
    }

    @Test("Header values continue on lines that start with a space")
    func continuedHeaderValues() throws {
        let trace = try APDUTrace(
            text: "# outcome: online request,\n#   ARQC in the GPO response\n#  \n# kernel: C-3\n#   \n")
        #expect(trace.headerValue("outcome") == "online request, ARQC in the GPO response")
        #expect(trace.headerValue("kernel") == "C-3")
        // A continuation line is never a key line of its own.
        let indented = try APDUTrace(text: "# note:\n#   kernel: C-2\n")
        #expect(indented.headerValue("kernel") == nil)
        #expect(indented.headerValue("note") == "kernel: C-2")
    }

    @Test("Serializes to canonical text that parses back to an equal trace")
    func roundTrip() throws {
        let trace = try APDUTrace(text: Self.sample)
        let text = trace.text
        #expect(text.contains("80A8000002830000 : 770A820200009404080101009000  # GPO, no PDOL\n"))
        let again = try APDUTrace(text: text)
        #expect(again == trace)
        #expect(again.text == text)
    }

    @Test(
        "Round trips keep comments in their place",
        arguments: [
            APDUTrace(),
            APDUTrace(header: ["only a header"]),
            APDUTrace(trailer: ["only a trailer"]),
            APDUTrace(exchanges: [
                .init(command: .selectPPSE, response: .init(statusWord: .success), comments: ["first"])
            ]),
            APDUTrace(
                header: ["h", ""],
                exchanges: [.init(command: .selectPPSE, response: .init(statusWord: .success), note: "")],
                trailer: ["t"]),
        ])
    func roundTripShapes(trace: APDUTrace) throws {
        #expect(try APDUTrace(text: trace.text) == trace)
    }

    @Test("Reads a trace file, and reports a missing one")
    func file() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("apdu-trace-\(UUID().uuidString).trace")
        try Data(Self.sample.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try APDUTrace(contentsOf: url) == APDUTrace(text: Self.sample))
        #expect(throws: (any Error).self) { try APDUTrace(contentsOf: url.appendingPathExtension("missing")) }
    }

    @Test("Windows line ends and surrounding whitespace are accepted")
    func windowsLineEnds() throws {
        let trace = try APDUTrace(text: "# h\r\n\r\n  00A4040000 : 9000  \r\n\t00B2010C00:6A83\r\n")
        #expect(trace.header == ["h"])
        #expect(trace.exchanges.map(\.lineNumber) == [3, 4])
        #expect(trace.exchanges[1].response.statusWord == StatusWord(0x6A83))
    }

    @Test(
        "Every malformed line is reported with its line number",
        arguments: [
            ("00A4040000 9000", APDUTraceError.missingSeparator, 3, nil as Int?),
            ("00A4040000 : 90 : 00", .extraSeparator, 3, 17),
            ("00A40400ZZ : 9000", .invalidHex, 3, 9),
            ("00A4040000 : 900", .invalidHex, 3, 13),
            ("00A4040 : 9000", .invalidHex, 3, 1),
            (" : 9000", .malformedCommand, 3, 1),
            ("00A4 : 9000", .malformedCommand, 3, 1),
            ("00A4040005A000 : 9000", .malformedCommand, 3, 1),
            ("00A4040000 : 90", .malformedResponse, 3, 13),
            ("00A4040000 :", .malformedResponse, 3, 13),
            ("00A4040000 : # note", .malformedResponse, 3, 13),
        ])
    func malformed(line: String, expected: APDUTraceError, lineNumber: Int, column: Int?) {
        let text = "# header\n\n\(line)\n00B2010C00 : 9000\n"
        do {
            _ = try APDUTrace(text: text)
            Issue.record("expected \(expected.code)")
        } catch {
            #expect(error == expected)
            #expect(error.lineNumber == lineNumber)
            #expect(error.column == column)
            #expect(error.description.contains("line \(lineNumber)"))
        }
    }

    @Test("The first malformed line is the one reported, wherever it is")
    func laterLine() {
        let text = "00A4040000 : 9000\n\n# c\n00B2010C00 : 9000\n00B2020C00 : 9G00\n"
        #expect(throws: APDUTraceError.invalidHex) { try APDUTrace(text: text) }
        do {
            _ = try APDUTrace(text: text)
        } catch {
            #expect(error.lineNumber == 5)
        }
    }

    @Test("Error messages never quote the line's bytes")
    func messagesAreClean() {
        let pan = "5413330089020012"
        do {
            _ = try APDUTrace(text: "00B2010C00 : 70 0A 5A 08 \(pan) ZZ 9000")
        } catch {
            #expect(!error.description.contains(pan))
            #expect(!error.description.contains("5A08"))
        }
    }
}
