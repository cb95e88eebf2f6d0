import EMV
import Foundation
import ReaderKernel
import SmartCard
import Testing

/// The kernel replayed against the real card traces shipped in Tests/TransactionTests/Traces (provenance and the
/// outcome each trace implies are in the files' headers), through SmartCard's `ReplayChannel`.
@Suite struct TraceReplayTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../TransactionTests/Traces")

    /// A shipped trace, with the PAN digits its source masked as `FFFFFF` inside track 2 put back as zeros so track 2
    /// parses again (the digits play no part in what is tested).
    static func replay(_ name: String) throws -> ReplayChannel {
        let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent(name)), as: UTF8.self)
        let trace = try APDUTrace(text: text)
        let pattern = try NSRegularExpression(pattern: "([0-9]{6})FFFFFF([0-9]{4}D)")
        let exchanges = try trace.exchanges.map { exchange in
            let hex = exchange.response.bytes.hexString
            let unmasked = pattern.stringByReplacingMatches(
                in: hex, range: NSRange(hex.startIndex..., in: hex), withTemplate: "$1000000$2")
            var copy = exchange
            copy.response = try ResponseAPDU(bytes: [UInt8](hex: unmasked) ?? [])
            return copy
        }
        return ReplayChannel(trace: APDUTrace(header: trace.header, exchanges: exchanges, trailer: trace.trailer))
    }

    static func kernel() throws -> ReaderKernel {
        ReaderKernel(
            configuration: .default(caPublicKeys: try RealCards.caKeys()), clock: { RealCards.recordedDate },
            timeZone: TimeZone(identifier: "UTC") ?? .current, unpredictableNumbers: { [0xB7, 0xFE, 0xDE, 0x9D] })
    }

    static let zeroAUD = TransactionRequest(amount: Amount(minorUnits: 0, currency: .aud))

    @Test func visaPrepaidOnlineGoesOnlineWithoutACryptogramInformationData() async throws {
        // No 9F27 in the GPO response: the CVR in the IAD (06 0C 11 03 A0 00 00) says ARQC.
        let result = try await Self.kernel().perform(
            Self.zeroAUD, over: try Self.replay("visa-prepaid-qvsdc-online.trace"))
        #expect(result.outcome.status == .onlineRequest)
        #expect(result.outcome.kernel == .c3)
        #expect(result.exchanges.map(\.command.ins) == [0xA4, 0xA4, 0xA8])
        let data = try #require(result.outcome.authorizationData)
        #expect(data.iccValue(.applicationCryptogram) == [UInt8](hex: "8F0E8008B46B9E5F"))
        #expect(data.iccValue(.applicationTransactionCounter) == [0x01, 0x1B])
        #expect(data.iccValue(.cryptogramInformationData) == [0x80])
        #expect(
            result.events.contains(
                .offlineDataAuthentication(.notPerformed("online authorisation without an fDDA signature"))))
    }

    @Test func visaPrepaidWithMaskedFDDADeclines() async throws {
        let result = try await Self.kernel().perform(
            Self.zeroAUD, over: try Self.replay("visa-prepaid-qvsdc-fdda.trace"))
        // PPSE, SELECT, GPO and the five records of the AFL; the recorder's GET DATA commands are never sent.
        #expect(result.exchanges.map(\.command.ins) == [0xA4, 0xA4, 0xA8, 0xB2, 0xB2, 0xB2, 0xB2, 0xB2])
        #expect(
            result.events.contains {
                if case .offlineDataAuthentication(.failed(.fDDA, _)) = $0 { true } else { false }
            })
        #expect(result.outcome.status == .declined)
        #expect(result.outcome.reason == .offlineDataAuthenticationFailed)
    }

    @Test func visaPrepaidWithSignedDataInARecordAttemptsFDDA() async throws {
        // The card keeps its 9F4B in SFI 2 record 4 instead of the GPO response; Kernel 3 verifies it wherever it
        // comes from. The source masked it and the ICC certificate, so fDDA fails and, with CTQ 0000 (neither "go
        // online" nor "switch interface" when ODA fails), the kernel declines rather than going online.
        let result = try await Self.kernel().perform(
            Self.zeroAUD, over: try Self.replay("visa-prepaid-qvsdc-records.trace"))
        #expect(result.exchanges.map(\.command.ins) == [0xA4, 0xA4, 0xA8, 0xB2, 0xB2, 0xB2, 0xB2, 0xB2])
        #expect(result.events.contains(.cryptogramReceived(type: "ARQC", atc: [0x00, 0xD0])))
        #expect(
            result.events.contains {
                if case .offlineDataAuthentication(.failed(.fDDA, _)) = $0 { true } else { false }
            })
        #expect(result.outcome.status == .declined)
        #expect(result.outcome.reason == .offlineDataAuthenticationFailed)
    }

    @Test(arguments: ["mastercard-mchip-cda-records.trace", "mastercard-debit-eftpos-cobadged.trace"])
    func mastercardTracesEndAtTheMissingGenerateAC(name: String) async throws {
        // 10.00 EUR is over the floor limit (0), so terminal action analysis asks for an ARQC.
        let result = try await Self.kernel().perform(RealCards.euros(1000), over: try Self.replay(name))
        guard
            case .candidatesBuilt(let candidates)? = result.events.first(where: {
                if case .candidatesBuilt = $0 { true } else { false }
            })
        else {
            Issue.record("no candidate list")
            return
        }
        #expect(candidates.map(\.adfName) == [[0xA0, 0, 0, 0, 0x04, 0x10, 0x10]], "eftpos is not supported here")
        let generateAC = try #require(result.exchanges.last)
        #expect(generateAC.command.ins == 0xAE)
        #expect(generateAC.command.p1 == 0x90, "ARQC with CDA: CA key 06 is known")
        // CDOL1 (8C 27) lists the 14 elements of the C-2 CDOL1, 66 bytes of data.
        #expect(generateAC.command.data.count == 66)
        #expect(generateAC.error != nil)
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.reason == .transmissionFailed)
    }
}
