import EMV
import SmartCard
import Testing

/// The real card traces in `Traces/`: each parses, says where it comes from and what it implies, holds well-formed
/// TLV, and replays to its own responses.
@Suite("Shipped traces")
struct ShippedTraceTests {
    @Test("At least three real traces ship, of both brands")
    func inventory() throws {
        let names = TraceFiles.names
        #expect(names.count >= 3)
        let kernels = try names.compactMap { try TraceFiles.load($0).headerValue("kernel") }
        #expect(kernels.contains { $0.hasPrefix("C-3") })
        #expect(kernels.contains { $0.hasPrefix("C-2") })
    }

    @Test("The header records provenance, licence and the implied outcome", arguments: TraceFiles.names)
    func provenance(name: String) throws {
        let trace = try TraceFiles.load(name)
        for key in ["source", "repository", "path", "commit", "licence", "changes", "outcome", "kernel"] {
            #expect(trace.headerValue(key)?.isEmpty == false, "\(name) lacks `\(key):`")
        }
        #expect(trace.headerValue("source")?.hasPrefix("https://") == true)
        #expect(trace.headerValue("commit")?.count == 40)
    }

    @Test("Parses, starts with SELECT PPSE, and writes back to an equal trace", arguments: TraceFiles.names)
    func parsesAndRoundTrips(name: String) throws {
        let trace = try TraceFiles.load(name)
        #expect(trace.exchanges.count >= 3)
        #expect(trace.exchanges.first?.command == .selectPPSE)
        #expect(try APDUTrace(text: trace.text) == trace)
    }

    @Test("Every response's data is well-formed BER-TLV", arguments: TraceFiles.names)
    func responsesAreTLV(name: String) throws {
        let trace = try TraceFiles.load(name)
        for exchange in trace.exchanges where !exchange.response.data.isEmpty {
            let data = exchange.response.data
            let strict = try? TLV.parse(data, rules: .strict)
            let parsed = try strict ?? TLV.parse(data, rules: .lenient)
            #expect(parsed.count >= 1, "line \(exchange.lineNumber)")
            // Every response a card sends is one template (6F, 70, 77) or one GET DATA object.
            #expect(parsed.count == 1, "line \(exchange.lineNumber) holds \(parsed.count) objects")
        }
    }

    @Test("Replaying a trace's own commands reproduces its responses", arguments: TraceFiles.names)
    func replaysItself(name: String) async throws {
        let trace = try TraceFiles.load(name)
        for options in [ReplayChannel.Options.default, .strict] {
            let channel = ReplayChannel(trace: trace, options: options)
            for exchange in trace.exchanges {
                #expect(try await channel.transmit(exchange.command) == exchange.response)
            }
            #expect(await channel.isFinished)
        }
    }
}
