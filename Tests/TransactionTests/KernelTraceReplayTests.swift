import EMV
import Foundation
import ReaderKernel
import SmartCard
import Testing

/// The reader kernel replayed against the shipped real-card traces through SmartCard's `ReplayChannel`: it sends its
/// own GPO and CDOL data, reads records in AFL order, skips the recorders' GET DATA, and reaches the outcome each
/// trace's header says it implies.
@Suite("The reader kernel over the shipped traces")
struct KernelTraceReplayTests {
    /// A shipped trace as a replay channel, with the PAN digits its source masked as `FFFFFF` inside track 2 put back
    /// as zeros so track 2 parses again (the digits play no part in what is tested).
    static func replay(_ name: String, options: ReplayChannel.Options = .default) throws -> ReplayChannel {
        let trace = try TraceFiles.load(name)
        let pattern = try NSRegularExpression(pattern: "([0-9]{6})FFFFFF([0-9]{4}D)")
        let exchanges = try trace.exchanges.map { exchange in
            let hex = exchange.response.bytes.hexString
            let unmasked = pattern.stringByReplacingMatches(
                in: hex, range: NSRange(hex.startIndex..., in: hex), withTemplate: "$1000000$2")
            var copy = exchange
            copy.response = try ResponseAPDU(bytes: [UInt8](hex: unmasked) ?? [])
            return copy
        }
        return ReplayChannel(
            trace: APDUTrace(header: trace.header, exchanges: exchanges, trailer: trace.trailer), options: options)
    }

    /// A kernel with the CA keys the traces name, on a fixed date, with the first trace's unpredictable number.
    static func kernel() throws -> ReaderKernel {
        ReaderKernel(
            configuration: .default(caPublicKeys: try TraceFiles.caPublicKeys()),
            clock: { Date(timeIntervalSince1970: 1_677_672_000) },  // 2023-03-01
            timeZone: TimeZone(identifier: "UTC") ?? .current, unpredictableNumbers: { [0xB7, 0xFE, 0xDE, 0x9D] })
    }

    static let zeroAUD = TransactionRequest(amount: Amount(minorUnits: 0, currency: .aud))

    /// The outcome the trace's header says it implies (`# outcome: …`).
    static func impliedOutcome(_ name: String) throws -> String {
        try #require(try TraceFiles.load(name).headerValue("outcome"))
    }

    /// Every exchange got a 9000 answer from the trace.
    static func allAnswered(_ exchanges: some Collection<APDUExchange>) -> Bool {
        exchanges.allSatisfy { $0.error == nil && $0.response?.isSuccess == true }
    }

    @Test func visaPrepaidOnlineGoesOnlineWithoutACryptogramInformationData() async throws {
        let name = "visa-prepaid-qvsdc-online.trace"
        #expect(try Self.impliedOutcome(name).hasPrefix("online request"))
        // No 9F27 in the GPO response: the CVR in the IAD (06 0C 11 03 A0 00 00) says ARQC.
        let result = try await Self.kernel().perform(Self.zeroAUD, over: try Self.replay(name))
        #expect(result.outcome.status == .onlineRequest)
        #expect(result.outcome.kernel == .c3)
        #expect(result.exchanges.map(\.command.ins) == [0xA4, 0xA4, 0xA8])
        #expect(Self.allAnswered(result.exchanges))
        let data = try #require(result.outcome.authorizationData)
        #expect(data.iccValue(.applicationCryptogram) == [UInt8](hex: "8F0E8008B46B9E5F"))
        #expect(data.iccValue(.applicationTransactionCounter) == [0x01, 0x1B])
        #expect(data.iccValue(.cryptogramInformationData) == [0x80])
        #expect(
            result.events.contains(
                .offlineDataAuthentication(.notPerformed("online authorisation without an fDDA signature"))))
    }

    @Test(
        "Visa traces with a masked fDDA signature (in the GPO response, or in a record) decline",
        arguments: [
            ("visa-prepaid-qvsdc-fdda.trace", [UInt8]([0x00, 0xBE])),
            ("visa-prepaid-qvsdc-records.trace", [0x00, 0xD0]),
        ])
    func visaPrepaidWithMaskedFDDADeclines(name: String, atc: [UInt8]) async throws {
        #expect(try Self.impliedOutcome(name).contains("decline"))
        let result = try await Self.kernel().perform(Self.zeroAUD, over: try Self.replay(name))
        // PPSE, SELECT, GPO and the five records of the AFL; the recorder's GET DATA commands are never sent.
        #expect(result.exchanges.map(\.command.ins) == [0xA4, 0xA4, 0xA8, 0xB2, 0xB2, 0xB2, 0xB2, 0xB2])
        #expect(Self.allAnswered(result.exchanges))
        #expect(result.events.contains(.cryptogramReceived(type: "ARQC", atc: atc)))
        // The production CA key recovers the real issuer certificate, whose issuer identifier then fails to match the
        // PAN digits the source masked (the ICC certificate and the signature are masked too): fDDA fails, and with
        // CTQ 0000 (neither "go online" nor "switch interface" when ODA fails) the kernel declines.
        #expect(result.events.contains(.offlineDataAuthentication(.failed(.fDDA, reason: "issuerIdentifierMismatch"))))
        #expect(result.outcome.status == .declined)
        #expect(result.outcome.reason == .offlineDataAuthenticationFailed)
    }

    @Test(
        "Mastercard traces: records replay (out of the recorder's order), then GENERATE AC is not in the trace",
        arguments: ["mastercard-mchip-cda-records.trace", "mastercard-debit-eftpos-cobadged.trace"])
    func mastercardTracesEndAtTheMissingGenerateAC(name: String) async throws {
        #expect(try Self.impliedOutcome(name).hasPrefix("none recorded"))
        // 10.00 EUR is over the floor limit (0), so terminal action analysis asks for an ARQC.
        let result = try await Self.kernel().perform(
            TransactionRequest(amount: Amount(minorUnits: 1000, currency: .eur)), over: try Self.replay(name))
        guard
            case .candidatesBuilt(let candidates)? = result.events.first(where: {
                if case .candidatesBuilt = $0 { true } else { false }
            })
        else {
            Issue.record("no candidate list")
            return
        }
        #expect(candidates.map(\.adfName) == [[0xA0, 0, 0, 0, 0x04, 0x10, 0x10]], "eftpos is not supported here")
        // PPSE, SELECT, GPO, the five records of the AFL (the recorder read SFI 1 record 1 first, twice), GENERATE AC.
        #expect(result.exchanges.map(\.command.ins) == [0xA4, 0xA4, 0xA8, 0xB2, 0xB2, 0xB2, 0xB2, 0xB2, 0xAE])
        #expect(Self.allAnswered(result.exchanges.dropLast()))
        let generateAC = try #require(result.exchanges.last)
        #expect(generateAC.command.p1 == 0x90, "ARQC with CDA: CA key 06 is known")
        // CDOL1 (8C 27) lists the 14 elements of the C-2 CDOL1, 66 bytes of data.
        #expect(generateAC.command.data.count == 66)
        #expect(try Self.impliedOutcome(name).contains("66 bytes of CDOL1 data"))
        #expect(generateAC.error == .unexpectedCommand)
        #expect(generateAC.error?.traceLine != nil)
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.reason == .transmissionFailed)
    }

    @Test("Without READ RECORD reordering the Mastercard replay stops at the recorder's repeated record")
    func mastercardWithoutReordering() async throws {
        let channel = try Self.replay("mastercard-mchip-cda-records.trace", options: .init(reordersRecords: false))
        let result = try await Self.kernel().perform(
            TransactionRequest(amount: Amount(minorUnits: 1000, currency: .eur)), over: channel)
        let last = try #require(result.exchanges.last)
        #expect(last.command.ins == 0xB2)
        #expect(last.error == .unexpectedCommand)
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.reason == .transmissionFailed)
    }
}
