import EMV
import SmartCard
import Testing

/// Drives each shipped trace the way a payment kernel would — its own GPO data (same PDOL length, other values),
/// records in AFL order, no GET DATA — to show that ``ReplayChannel``'s matching rules let a kernel replay real
/// cards, and that each trace ends where its header says. The reader kernel's own replay tests (the integrator's)
/// check the outcomes proper.
@Suite("Reader-shaped replay of the shipped traces")
struct ReaderShapedReplayTests {
    /// What the minimal reader saw.
    struct Reading {
        var aid: [UInt8] = []
        var gpo: ResponseAPDU?
        var records: [ResponseAPDU] = []
        var generateAC: Result<ResponseAPDU, SmartCardError>?
    }

    static let supportedAIDs: [[UInt8]] = [[0xA0, 0, 0, 0, 0x03, 0x10, 0x10], [0xA0, 0, 0, 0, 0x04, 0x10, 0x10]]

    /// PPSE, the supported application of highest priority, GPO, the AFL's records, and for an EMV-mode
    /// Mastercard (AIP byte 2 bit 8) a GENERATE AC with zeroed CDOL1 data and CDA requested.
    static func read(over channel: any CardChannel) async throws -> Reading {
        var reading = Reading()
        let ppse = try await channel.transmit(.selectPPSE)
        let entries = try TLV.parseOne(ppse.data, rules: .lenient).children.all(0x61)
        let candidates = entries.compactMap { entry -> (aid: [UInt8], priority: UInt8)? in
            guard let aid = entry.first(.applicationIdentifier).map({ Array($0.value) }), supportedAIDs.contains(aid)
            else { return nil }
            return (aid, entry.first(.applicationPriorityIndicator)?.value.first.map { $0 & 0x0F } ?? 15)
        }
        let chosen = try #require(candidates.min { $0.priority < $1.priority })
        reading.aid = chosen.aid
        let fci = try await channel.transmit(try .select(name: chosen.aid))
        let pdol = try TLV.parseOne(fci.data, rules: .lenient).first(.pdol).map { try DataObjectList(Array($0.value)) }
        let gpo = try await channel.transmit(
            try .getProcessingOptions(pdolData: Array(repeating: 0, count: pdol?.relatedDataLength ?? 0)))
        reading.gpo = gpo
        let template = try TLV.parseOne(gpo.data, rules: .lenient)
        let afl = Array(template.first(.applicationFileLocator)?.value ?? [])
        var cdol1: DataObjectList?
        for entry in stride(from: 0, to: afl.count - 3, by: 4) {
            let sfi = afl[entry] >> 3
            for number in afl[entry + 1]...max(afl[entry + 1], afl[entry + 2]) {
                let record = try await channel.transmit(try .readRecord(number, sfi: sfi))
                reading.records.append(record)
                if let node = try? TLV.parseOne(record.data, rules: .lenient).first(.cdol1) {
                    cdol1 = try DataObjectList(Array(node.value))
                }
            }
        }
        let aip = Array(template.first(.applicationInterchangeProfile)?.value ?? [])
        if let cdol1, aip.count == 2, aip[1] & 0x80 != 0 {
            let data = [UInt8](repeating: 0, count: cdol1.relatedDataLength)
            do {
                reading.generateAC = .success(
                    try await channel.transmit(try .generateAC(.arqc, cdaRequested: true, cdolData: data)))
            } catch let error as SmartCardError {
                reading.generateAC = .failure(error)
            }
        }
        return reading
    }

    @Test(
        "Visa traces: the GPO answers with an ARQC and every AFL record replays",
        arguments: [
            "visa-prepaid-qvsdc-online.trace", "visa-prepaid-qvsdc-fdda.trace", "visa-prepaid-qvsdc-records.trace",
        ])
    func visa(name: String) async throws {
        let trace = try TraceFiles.load(name)
        let reading = try await Self.read(over: ReplayChannel(trace: trace))
        #expect(reading.aid == Self.supportedAIDs[0])
        let template = try TLV.parseOne(try #require(reading.gpo).data, rules: .strict)
        #expect(template.first(.applicationCryptogram)?.length == 8)
        // Where the card sends a CID it says ARQC; the CVN 17 card says so in its CVR (IAD byte 5 bits 6-5 = 10).
        if let cid = template.first(.cryptogramInformationData) {
            #expect(cid.value.first == 0x80)
        } else {
            let iad = Array(try #require(template.first(.issuerApplicationData)).value)
            #expect(iad[4] & 0x30 == 0x20)
        }
        let allRead = reading.records.allSatisfy { $0.isSuccess }
        #expect(allRead)
        #expect(reading.generateAC == nil)
        #expect(trace.headerValue("outcome")?.contains("ARQC") == true)
    }

    @Test(
        "Mastercard traces: records replay (out of the recorder's order), then GENERATE AC is not in the trace",
        arguments: ["mastercard-mchip-cda-records.trace", "mastercard-debit-eftpos-cobadged.trace"])
    func mastercard(name: String) async throws {
        let trace = try TraceFiles.load(name)
        let reading = try await Self.read(over: ReplayChannel(trace: trace))
        #expect(reading.aid == Self.supportedAIDs[1])
        #expect(reading.records.count == 5)
        let allRead = reading.records.allSatisfy { $0.isSuccess }
        #expect(allRead)
        guard case .failure(let error) = try #require(reading.generateAC) else {
            Issue.record("GENERATE AC should not be answerable from \(name)")
            return
        }
        #expect(error == .unexpectedCommand)
        #expect(error.traceLine != nil)
        #expect(trace.headerValue("outcome")?.hasPrefix("none recorded") == true)
    }

    @Test("The same Mastercard replay without READ RECORD reordering stops at the recorder's repeated record")
    func mastercardWithoutReordering() async throws {
        let trace = try TraceFiles.load("mastercard-mchip-cda-records.trace")
        let channel = ReplayChannel(trace: trace, options: .init(reordersRecords: false))
        await #expect(throws: SmartCardError.unexpectedCommand) { _ = try await Self.read(over: channel) }
    }
}
