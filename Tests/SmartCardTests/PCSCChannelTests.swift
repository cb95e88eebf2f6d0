import EMV
import Foundation
import Testing

@testable import SmartCard

@Suite("PCSCChannel: EMV Book 1 transport rules over a fake PC/SC library")
struct PCSCChannelTests {
    static let reader = "Virtual PCD 00 00"

    /// A channel to a fake card in one reader, negotiated under `proto`.
    static func channel(_ proto: PCSCProtocol, respond: @escaping @Sendable ([UInt8]) -> [UInt8]) throws -> (
        PCSCChannel, FakePCSC
    ) {
        let fake = FakePCSC(readers: [PCSCReaderState(readerName: reader, eventState: .present, atr: [0x3B, 0x00])])
        fake.negotiated = proto
        fake.respond = respond
        let context = try PCSCContext(functions: fake.functions, removalGrace: .milliseconds(20))
        return (try context.connect(reader: reader), fake)
    }

    static let gpo = try! CommandAPDU(bytes: [UInt8](hex: "80A8000002830000")!)
    static let generateAC = try! CommandAPDU(bytes: [UInt8](hex: "80AE800002AABB00")!)
    static let readRecord = try! CommandAPDU(bytes: [UInt8](hex: "00B2010C00")!)

    @Test("T=0: a case 4 command goes out without Le and 61XX is fetched by GET RESPONSE Le XX")
    func caseFourUnderT0() async throws {
        let (channel, fake) = try Self.channel(.t0) { command in
            switch command.hexString {
            case "80A80000028300": [0x61, 0x04]
            case "00C0000004": [0x77, 0x02, 0x82, 0x00, 0x90, 0x00]
            default: [0x6D, 0x00]
            }
        }
        let response = try await channel.transmit(Self.gpo)
        #expect(response == ResponseAPDU(data: [0x77, 0x02, 0x82, 0x00], statusWord: .success))
        #expect(fake.transmitted.map(\.hexString) == ["80A80000028300", "00C0000004"])
        #expect(channel.activeProtocol == .t0)
    }

    @Test("T=0: GET RESPONSE is repeated while the card answers 61XX, and the parts are joined")
    func chainedGetResponse() async throws {
        let (channel, fake) = try Self.channel(.t0) { command in
            switch command.hexString {
            case "80AE800002AABB": [0x61, 0x00]
            case "00C0000000": Array(repeating: 0xAA, count: 256) + [0x61, 0x03]
            case "00C0000003": [1, 2, 3, 0x90, 0x00]
            default: [0x6D, 0x00]
            }
        }
        let response = try await channel.transmit(Self.generateAC)
        #expect(response.data == Array(repeating: 0xAA, count: 256) + [1, 2, 3])
        #expect(response.statusWord == .success)
        #expect(fake.transmitted.count == 3)
    }

    @Test("6CXX: the command is re-sent with Le XX")
    func wrongLength() async throws {
        let (channel, fake) = try Self.channel(.t0) { command in
            switch command.hexString {
            case "00B2010C00": [0x6C, 0x05]
            case "00B2010C05": [0x70, 0x03, 0x5F, 0x20, 0x00, 0x90, 0x00]
            default: [0x6D, 0x00]
            }
        }
        let response = try await channel.transmit(Self.readRecord)
        #expect(response == ResponseAPDU(data: [0x70, 0x03, 0x5F, 0x20, 0x00], statusWord: .success))
        #expect(fake.transmitted.map(\.hexString) == ["00B2010C00", "00B2010C05"])
    }

    @Test("6CXX on GET RESPONSE: GET RESPONSE is re-sent with Le XX")
    func wrongLengthOnGetResponse() async throws {
        let (channel, fake) = try Self.channel(.t0) { command in
            switch command.hexString {
            case "80A80000028300": [0x61, 0x10]
            case "00C0000010": [0x6C, 0x02]
            case "00C0000002": [0xAB, 0xCD, 0x90, 0x00]
            default: [0x6D, 0x00]
            }
        }
        let response = try await channel.transmit(Self.gpo)
        #expect(response == ResponseAPDU(data: [0xAB, 0xCD], statusWord: .success))
        #expect(fake.transmitted.count == 3)
    }

    @Test("T=0: a warning to a case 4 command fetches its data by GET RESPONSE Le 00 and keeps the warning")
    func warningOnCaseFour() async throws {
        let (channel, _) = try Self.channel(.t0) { command in
            switch command.hexString {
            case "80AE800002AABB": [0x62, 0x83]
            case "00C0000000": [0x01, 0x02, 0x90, 0x00]
            default: [0x6D, 0x00]
            }
        }
        let response = try await channel.transmit(Self.generateAC)
        #expect(response == ResponseAPDU(data: [0x01, 0x02], statusWord: StatusWord(0x6283)))
    }

    @Test("T=0: an error status to a case 4 command is the answer, with no GET RESPONSE")
    func errorOnCaseFour() async throws {
        let (channel, fake) = try Self.channel(.t0) { _ in [0x69, 0x86] }
        let response = try await channel.transmit(Self.gpo)
        #expect(response.statusWord == StatusWord(0x6986))
        #expect(fake.transmitted.count == 1)
    }

    @Test("T=1: a case 4 command goes out whole")
    func caseFourUnderT1() async throws {
        let (channel, fake) = try Self.channel(.t1) { _ in [0x77, 0x00, 0x90, 0x00] }
        let response = try await channel.transmit(Self.gpo)
        #expect(response.data == [0x77, 0x00])
        #expect(fake.transmitted.map(\.hexString) == ["80A8000002830000"])
    }

    @Test("A card that answers 61XX forever is a malformed response, not a hang")
    func endless61() async throws {
        let (channel, fake) = try Self.channel(.t0) { _ in [0x61, 0x01] }
        await #expect(throws: SmartCardError.malformedResponse) { try await channel.transmit(Self.gpo) }
        #expect(fake.transmitted.count <= PCSCChannel.maximumRounds + 1)
    }

    @Test("Fewer than two bytes back: malformedResponse naming the instruction, never the data", arguments: [0, 1])
    func garbage(length: Int) async throws {
        let (channel, _) = try Self.channel(.t1) { _ in Array(repeating: 0x41, count: length) }
        let error = await #expect(throws: SmartCardError.malformedResponse) {
            try await channel.transmit(Self.generateAC)
        }
        #expect(error?.message.contains("GENERATE AC") == true)
        #expect(error?.message.contains("AABB") == false)
        #expect(error?.message.contains("80AE") == false)
    }

    @Test("An empty answer while the card leaves the reader: cardRemoved, not malformed")
    func emptyAnswerAsCardLeaves() async throws {
        let (channel, fake) = try Self.channel(.t1) { _ in [] }
        fake.readers[0].eventState = .empty
        let error = await #expect(throws: SmartCardError.cardRemoved) { try await channel.transmit(Self.generateAC) }
        #expect(error?.message.contains("GENERATE AC") == true)
    }

    @Test("An empty answer when SCardStatus already reports the card absent: cardRemoved")
    func emptyAnswerCardAbsent() async throws {
        let (channel, fake) = try Self.channel(.t1) { _ in [] }
        fake.cardState = 0x2
        await #expect(throws: SmartCardError.cardRemoved) { try await channel.transmit(Self.generateAC) }
    }

    @Test("Garbage in a GET RESPONSE names both commands")
    func garbageInGetResponse() async throws {
        let (channel, _) = try Self.channel(.t0) { command in command[1] == 0xC0 ? [0x90] : [0x61, 0x10] }
        let error = await #expect(throws: SmartCardError.malformedResponse) { try await channel.transmit(Self.gpo) }
        #expect(error?.message.contains("GET RESPONSE (for GET PROCESSING OPTIONS)") == true)
    }

    @Test(
        "PC/SC failures during transmit map to typed errors",
        arguments: [
            (PCSCStatus.removedCard, SmartCardError.cardRemoved),
            (.noSmartCard, .cardRemoved),
            (.noService, .serviceUnavailable),
            (.communicationDataLost, .transmissionFailed),
            (.invalidHandle, .readerFailed),
        ])
    func transmitFailures(status: PCSCStatus, expected: SmartCardError) async throws {
        let (channel, fake) = try Self.channel(.t1) { _ in [0x90, 0x00] }
        fake.transmitStatus = status
        let error = await #expect(throws: expected) { try await channel.transmit(Self.generateAC) }
        #expect(error?.message.contains("GENERATE AC") == true || expected == .serviceUnavailable)
    }

    @Test("SCARD_E_NOT_TRANSACTED with the card gone (vpcd after the emulator died): cardRemoved")
    func notTransactedAsCardLeaves() async throws {
        let (channel, fake) = try Self.channel(.t1) { _ in [0x90, 0x00] }
        fake.transmitStatus = .notTransacted
        fake.readers[0].eventState = .empty
        let error = await #expect(throws: SmartCardError.cardRemoved) { try await channel.transmit(Self.readRecord) }
        #expect(error?.message.contains("READ RECORD") == true)
    }

    @Test("SCARD_E_NOT_TRANSACTED with the card still there: transmissionFailed naming the command")
    func notTransactedCardPresent() async throws {
        let (channel, fake) = try Self.channel(.t1) { _ in [0x90, 0x00] }
        fake.transmitStatus = .notTransacted
        let error = await #expect(throws: SmartCardError.transmissionFailed) {
            try await channel.transmit(Self.generateAC)
        }
        #expect(error?.message.contains("GENERATE AC") == true)
        #expect(error?.message.contains("SCARD_E_NOT_TRANSACTED") == true)
    }

    @Test("A disconnected channel refuses to transmit; disconnect happens once")
    func disconnected() async throws {
        let (channel, fake) = try Self.channel(.t1) { _ in [0x90, 0x00] }
        channel.disconnect()
        channel.disconnect()
        await #expect(throws: SmartCardError.transmissionFailed) { try await channel.transmit(Self.gpo) }
        #expect(fake.calls.filter { $0 == "disconnect" }.count == 1)
    }

    @Test("The reader name and ATR come from the connection")
    func connectionDetails() throws {
        let (channel, _) = try Self.channel(.t1) { _ in [0x90, 0x00] }
        #expect(channel.readerName == Self.reader)
        #expect(channel.atr == [0x3B, 0x80, 0x80, 0x01, 0x01])
    }
}
