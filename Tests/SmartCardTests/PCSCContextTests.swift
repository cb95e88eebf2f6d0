import EMV
import Foundation
import Testing

@testable import SmartCard

@Suite("PCSCContext: readers, waiting for a card, error mapping")
struct PCSCContextTests {
    static let present = PCSCReaderState(readerName: "Virtual PCD 00 00", eventState: .present, atr: [0x3B, 0x80])
    static let empty = PCSCReaderState(readerName: "Virtual PCD 00 01", eventState: .empty)

    @Test("pcscd not running: serviceUnavailable that says how to start it")
    func noService() {
        let fake = FakePCSC()
        fake.establishStatus = .noService
        let error = #expect(throws: SmartCardError.serviceUnavailable) { try PCSCContext(functions: fake.functions) }
        #expect(error?.message.contains("pcscd is not running") == true)
        #expect(error?.message.contains("pcscd -f") == true)
    }

    @Test("Readers are listed with whether a card is present and its ATR")
    func listing() throws {
        let fake = FakePCSC(readers: [Self.present, Self.empty])
        let context = try PCSCContext(functions: fake.functions)
        let readers = try context.readers()
        #expect(readers.map(\.readerName) == ["Virtual PCD 00 00", "Virtual PCD 00 01"])
        #expect(readers.map(\.isCardPresent) == [true, false])
        #expect(readers[0].atr == [0x3B, 0x80])
        #expect(readers[0].description == "Virtual PCD 00 00: card present, ATR 3B80")
    }

    @Test("No readers: an empty list, and waiting for a card says there is no reader")
    func noReaders() throws {
        let context = try PCSCContext(functions: FakePCSC().functions)
        #expect(try context.readers().isEmpty)
        #expect(throws: SmartCardError.noReaders) { try context.waitForCard(reader: nil, timeout: .seconds(1)) }
    }

    @Test("An unknown reader name: the error lists the readers there are")
    func unknownReader() throws {
        let fake = FakePCSC(readers: [Self.present, Self.empty])
        let context = try PCSCContext(functions: fake.functions)
        let error = #expect(throws: SmartCardError.unknownReader) {
            try context.waitForCard(reader: "ACS ACR122U", timeout: .seconds(1))
        }
        #expect(error?.message.contains("\"Virtual PCD 00 00\", \"Virtual PCD 00 01\"") == true)
        #expect(throws: SmartCardError.unknownReader) { try context.connect(reader: "ACS ACR122U") }
    }

    @Test("Waiting returns the reader with a card at once when there is one")
    func cardAlreadyThere() throws {
        let fake = FakePCSC(readers: [Self.empty, Self.present])
        let context = try PCSCContext(functions: fake.functions)
        let state = try context.waitForCard(reader: nil, timeout: .seconds(1))
        #expect(state.readerName == "Virtual PCD 00 00")
        #expect(state.atr == [0x3B, 0x80])
    }

    @Test("Waiting follows state changes until the card arrives")
    func cardArrives() throws {
        let fake = FakePCSC(readers: [Self.empty])
        fake.cardArrivesAfterCalls = 2
        let context = try PCSCContext(functions: fake.functions)
        let state = try context.waitForCard(reader: "Virtual PCD 00 01", timeout: .seconds(5))
        #expect(state.isCardPresent)
        #expect(fake.calls.filter { $0 == "getStatusChange" }.count == 3)
    }

    @Test("No card within the timeout: timedOut naming the reader")
    func timeout() throws {
        let context = try PCSCContext(functions: FakePCSC(readers: [Self.empty]).functions)
        let error = #expect(throws: SmartCardError.timedOut) {
            try context.waitForCard(reader: nil, timeout: .milliseconds(30))
        }
        #expect(error?.message.contains("Virtual PCD 00 01") == true)
    }

    @Test(
        "PC/SC codes map to typed errors",
        arguments: [
            (PCSCStatus.noService, SmartCardError.serviceUnavailable),
            (.serviceStopped, .serviceUnavailable),
            (.noReadersAvailable, .noReaders),
            (.unknownReader, .unknownReader),
            (.timeout, .timedOut),
            (.removedCard, .cardRemoved),
            (.noSmartCard, .cardRemoved),
            (.cancelled, .cancelled),
            (.sharingViolation, .readerFailed),
        ])
    func mapping(status: PCSCStatus, expected: SmartCardError) {
        let error = SmartCardError(pcsc: status, operation: "SCardConnect")
        #expect(error == expected)
        #expect(error.message.contains("SCardConnect"))
    }

    @Test("Codes print with their winscard.h name")
    func statusNames() {
        #expect("\(PCSCStatus.noService)" == "SCARD_E_NO_SERVICE (0x8010001D)")
        #expect("\(PCSCStatus(rawValue: 0x8010_0099))" == "0x80100099")
        // pcsc-lite's 64-bit LONG holds the unsigned constant; macOS's int32 the negative one.
        #expect(PCSCStatus(Int(0x8010_0069)) == .removedCard)
        #expect(PCSCStatus(Int32(bitPattern: 0x8010_0069)) == .removedCard)
    }

    @Test("No card in the reader at connect: cardRemoved")
    func connectWithoutCard() throws {
        let fake = FakePCSC(readers: [Self.empty])
        fake.connectStatus = .noSmartCard
        let context = try PCSCContext(functions: fake.functions)
        #expect(throws: SmartCardError.cardRemoved) { try context.connect(reader: "Virtual PCD 00 01") }
    }

    @Test("The context is released when the value goes")
    func release() throws {
        let fake = FakePCSC()
        do { _ = try PCSCContext(functions: fake.functions) }
        #expect(fake.calls == ["establish", "release"])
    }

    @Test("The library missing: libraryUnavailable saying what to install")
    func libraryMissing() {
        let error = #expect(throws: SmartCardError.libraryUnavailable) {
            try PCSCFunctions.load(candidates: ["/nonexistent/libpcsclite.so.1"])
        }
        #expect(error?.message.contains("apt-get install libpcsclite1 pcscd") == true)
    }

    @Test("A library without the PC/SC functions: libraryUnavailable naming the missing function")
    func notPCSC() {
        #if canImport(Glibc)
            let error = #expect(throws: SmartCardError.libraryUnavailable) {
                try PCSCFunctions.load(candidates: ["libc.so.6"])
            }
            #expect(error?.message.contains("SCardEstablishContext") == true)
        #endif
    }

    @Test("Multi-strings split into names")
    func multiString() {
        #expect(PCSCFunctions.names(fromMultiString: Array("a\0b c\0\0".utf8)) == ["a", "b c"])
        #expect(PCSCFunctions.names(fromMultiString: Array("a".utf8)) == ["a"])
        #expect(PCSCFunctions.names(fromMultiString: [0]).isEmpty)
    }
}
