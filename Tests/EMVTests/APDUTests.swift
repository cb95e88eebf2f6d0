import EMV
import Foundation
import Testing

private func hex(_ text: String) -> [UInt8] {
    guard let bytes = [UInt8](hex: text.filter { $0 != " " }) else {
        Issue.record("bad hex in test: \(text)")
        return []
    }
    return bytes
}

/// Runs `body`, expects an `APDUError`, and returns it for code and offset checks.
private func apduError(_ body: () throws -> Void) -> APDUError? {
    do {
        try body()
        Issue.record("expected an APDUError")
    } catch let error as APDUError {
        return error
    } catch {
        Issue.record("expected an APDUError, got \(error)")
    }
    return nil
}

@Suite struct CommandAPDUCodecTests {
    struct Canonical: CustomTestStringConvertible, Sendable {
        let hex: String
        let apduCase: CommandAPDU.Case
        let nc: Int
        let ne: Int
        let extended: Bool
        var testDescription: String { "case \(apduCase.rawValue)\(extended ? "E" : "S") Nc=\(nc) Ne=\(ne)" }
    }

    static let longData = String(repeating: "A5", count: 300)
    static let data256 = String(repeating: "5A", count: 256)

    /// Encodings that are already canonical: parsing then serializing gives the same bytes.
    static let canonical: [Canonical] = [
        .init(hex: "00A40400", apduCase: .one, nc: 0, ne: 0, extended: false),
        .init(hex: "00B2010C00", apduCase: .two, nc: 0, ne: 256, extended: false),
        .init(hex: "00C0000010", apduCase: .two, nc: 0, ne: 16, extended: false),
        .init(hex: "0020008008241234FFFFFFFFFF", apduCase: .three, nc: 8, ne: 0, extended: false),
        .init(hex: "00A404000E325041592E5359532E444446303100", apduCase: .four, nc: 14, ne: 256, extended: false),
        .init(hex: "80CA9F3601", apduCase: .two, nc: 0, ne: 1, extended: false),
        .init(hex: "00B00000000101", apduCase: .two, nc: 0, ne: 257, extended: true),
        .init(hex: "00B00000000000", apduCase: .two, nc: 0, ne: 65_536, extended: true),
        .init(hex: "00B0000000FFFF", apduCase: .two, nc: 0, ne: 65_535, extended: true),
        .init(hex: "00DA0000000100" + data256, apduCase: .three, nc: 256, ne: 0, extended: true),
        .init(hex: "00DA000000012C" + longData + "0000", apduCase: .four, nc: 300, ne: 65_536, extended: true),
        .init(hex: "00DA000000012C" + longData + "0100", apduCase: .four, nc: 300, ne: 256, extended: true),
        .init(hex: "00880000000004DEADBEEF03E8", apduCase: .four, nc: 4, ne: 1000, extended: true),
    ]

    @Test(arguments: canonical)
    func roundTrip(_ vector: Canonical) throws {
        let bytes = hex(vector.hex)
        let command = try CommandAPDU(bytes: bytes)
        #expect(command.apduCase == vector.apduCase)
        #expect(command.data.count == vector.nc)
        #expect(command.ne == vector.ne)
        #expect(command.isExtended == vector.extended)
        #expect(command.bytes == bytes)
        #expect(try CommandAPDU(bytes: command.bytes) == command)
    }

    @Test func headerFields() throws {
        let command = try CommandAPDU(bytes: hex("80AE5000020102 00"))
        #expect(command.cla == 0x80)
        #expect(command.ins == 0xAE)
        #expect(command.p1 == 0x50)
        #expect(command.p2 == 0x00)
        #expect(command.data == [0x01, 0x02])
        #expect(command.ne == 256)
    }

    /// Extended encodings of values that fit the short form parse to the same value and re-encode short.
    @Test(arguments: [
        ("00B00000000100", "00B0000000"),
        ("00B00000000010", "00B0000010"),
        ("00A4040000000E325041592E5359532E4444463031", "00A404000E325041592E5359532E4444463031"),
        ("00A4040000000E325041592E5359532E44444630310100", "00A404000E325041592E5359532E444446303100"),
        ("00A4040000000E325041592E5359532E44444630310020", "00A404000E325041592E5359532E444446303120"),
    ])
    func extendedInputReencodesShort(_ pair: (String, String)) throws {
        let extended = try CommandAPDU(bytes: hex(pair.0))
        let short = try CommandAPDU(bytes: hex(pair.1))
        #expect(extended == short)
        #expect(!extended.isExtended)
        #expect(extended.bytes == hex(pair.1))
    }

    @Test func constructorChecksLengths() throws {
        #expect(throws: APDUError.dataTooLong) {
            try CommandAPDU(cla: 0, ins: 0xD6, p1: 0, p2: 0, data: [UInt8](repeating: 0, count: 65_536))
        }
        #expect(throws: APDUError.expectedLengthOutOfRange) { try CommandAPDU(cla: 0, ins: 0xB0, p1: 0, p2: 0, ne: -1) }
        #expect(throws: APDUError.expectedLengthOutOfRange) {
            try CommandAPDU(cla: 0, ins: 0xB0, p1: 0, p2: 0, ne: 65_537)
        }
        let biggest = try CommandAPDU(
            cla: 0, ins: 0xD6, p1: 0, p2: 0, data: [UInt8](repeating: 7, count: 65_535), ne: 65_536)
        #expect(biggest.bytes.count == 4 + 3 + 65_535 + 2)
        #expect(try CommandAPDU(bytes: biggest.bytes) == biggest)
    }

    @Test func descriptionHidesData() throws {
        let verify = try CommandAPDU.verify(plaintextPIN: "4321")
        let text = "\(verify)"
        #expect(text == "CommandAPDU(00200080, case 3, Nc=8, Ne=0)")
        #expect(!text.contains("4321"))
    }
}

@Suite struct MalformedAPDUTests {
    @Test func empty() {
        let error = apduError { _ = try CommandAPDU(bytes: []) }
        #expect(error?.code == .truncatedHeader)
        #expect(error?.offset == 0)
    }

    @Test func truncatedHeader() {
        let error = apduError { _ = try CommandAPDU(bytes: hex("00A404")) }
        #expect(error?.code == .truncatedHeader)
        #expect(error?.offset == 3)
    }

    @Test func shortLcLongerThanData() {
        // Lc 0E announces 14 bytes; 2 follow.
        let error = apduError { _ = try CommandAPDU(bytes: hex("00A404000E3250")) }
        #expect(error == APDUError.lcMismatch)
        #expect(error?.offset == 4)
    }

    @Test func shortLcZero() {
        // 00 then one byte: short Lc would be 0, which ISO/IEC 7816-4 does not allow.
        let error = apduError { _ = try CommandAPDU(bytes: hex("00A4040000FF")) }
        #expect(error == APDUError.shortLcZero)
        #expect(error?.offset == 4)
    }

    @Test func extendedLcZero() {
        let error = apduError { _ = try CommandAPDU(bytes: hex("00A404000000000100")) }
        #expect(error == APDUError.extendedLcZero)
        #expect(error?.offset == 4)
    }

    @Test func extendedLcLongerThanData() {
        // Extended Lc 01 00 announces 256 bytes; 1 follows.
        let error = apduError { _ = try CommandAPDU(bytes: hex("00DA00000001005A")) }
        #expect(error == APDUError.lcMismatch)
        #expect(error?.offset == 4)
    }

    @Test func truncatedExtendedLe() {
        // Extended Lc 00 02, two data bytes, then one Le byte where two are needed.
        let error = apduError { _ = try CommandAPDU(bytes: hex("00A40400000002AABB01")) }
        #expect(error == APDUError.truncatedExtendedLe)
        #expect(error?.offset == 9)
    }

    @Test func trailingBytesAfterShortLe() {
        let error = apduError { _ = try CommandAPDU(bytes: hex("00A4040002AABB0000")) }
        #expect(error == APDUError.trailingBytes)
        #expect(error?.offset == 8)
    }

    @Test func trailingBytesAfterExtendedLe() {
        let error = apduError { _ = try CommandAPDU(bytes: hex("00A40400000002AABB000099")) }
        #expect(error == APDUError.trailingBytes)
        #expect(error?.offset == 11)
    }

    @Test func responseWithoutStatusWord() {
        for (bytes, offset) in [([UInt8](), 0), ([0x90], 1)] {
            let error = apduError { _ = try ResponseAPDU(bytes: bytes) }
            #expect(error == APDUError.truncatedStatusWord)
            #expect(error?.offset == offset)
        }
    }

    /// Every prefix and every one-byte extension of valid commands either parses or throws an APDUError.
    @Test func prefixesNeverCrash() {
        let samples = [
            "00A404000E325041592E5359532E444446303100", "00DA000000012C" + String(repeating: "11", count: 300),
        ]
        for sample in samples {
            let bytes = hex(sample)
            for length in 0...bytes.count {
                do {
                    let command = try CommandAPDU(bytes: bytes.prefix(length))
                    #expect(try CommandAPDU(bytes: command.bytes) == command)
                } catch {
                    #expect(error is APDUError)
                }
            }
        }
    }
}

@Suite struct APDUBuilderTests {
    @Test func selectPPSE() throws {
        let expected = hex("00 A4 04 00 0E 32 50 41 59 2E 53 59 53 2E 44 44 46 30 31 00")
        #expect(CommandAPDU.selectPPSE.bytes == expected)
        #expect(try CommandAPDU.select(name: Array("2PAY.SYS.DDF01".utf8)).bytes == expected)
    }

    @Test func getProcessingOptionsWithoutPDOL() throws {
        #expect(try CommandAPDU.getProcessingOptions().bytes == hex("80 A8 00 00 02 83 00 00"))
    }

    @Test func getProcessingOptionsWithLongPDOLData() throws {
        // 200 bytes of PDOL data need the two-byte BER length 81 C8 inside the 83 template.
        let pdolData = [UInt8](repeating: 0x11, count: 200)
        let command = try CommandAPDU.getProcessingOptions(pdolData: pdolData)
        #expect(Array(command.bytes.prefix(8)) == hex("80 A8 00 00 CB 83 81 C8"))
        #expect(command.bytes.last == 0x00)
        #expect(command.data.count == 203)
    }

    @Test func computeCryptographicChecksum() throws {
        // Book C-2: CLA 80, INS 2A, P1 8E, P2 80, UDOL data (here the 4-byte unpredictable number), Le 00.
        let command = try CommandAPDU.computeCryptographicChecksum(udolData: hex("00000899"))
        #expect(command.bytes == hex("80 2A 8E 80 04 00 00 08 99 00"))
    }

    @Test func internalAuthenticate() throws {
        #expect(try CommandAPDU.internalAuthenticate(ddolData: hex("01020304")).bytes == hex("0088000004010203 0400"))
    }

    @Test func getResponseAndChallenge() throws {
        #expect(try CommandAPDU.getResponse(expectedLength: 0x1C).bytes == hex("00C000001C"))
        #expect(try CommandAPDU.getResponse(expectedLength: 256).bytes == hex("00C0000000"))
        let sw = StatusWord(sw1: 0x61, sw2: 0x00)
        #expect(try CommandAPDU.getResponse(expectedLength: sw.bytesAvailable ?? 0).bytes == hex("00C0000000"))
        #expect(CommandAPDU.getChallenge.bytes == hex("0084000000"))
        #expect(throws: APDUError.expectedLengthOutOfRange) { try CommandAPDU.getResponse(expectedLength: 0) }
        #expect(throws: APDUError.expectedLengthOutOfRange) { try CommandAPDU.getResponse(expectedLength: 257) }
    }

    @Test func generateACReferenceControl() throws {
        let cdol: [UInt8] = [0xAA]
        #expect(try CommandAPDU.generateAC(.aac, cdolData: cdol).p1 == 0x00)
        #expect(try CommandAPDU.generateAC(.tc, cdolData: cdol).p1 == 0x40)
        #expect(try CommandAPDU.generateAC(.arqc, cdolData: cdol).p1 == 0x80)
        #expect(try CommandAPDU.generateAC(.arqc, cdaRequested: true, cdolData: cdol).p1 == 0x90)
        #expect(try CommandAPDU.generateAC(.tc, cdaRequested: true, cdolData: cdol).bytes == hex("80AE500001AA00"))
    }

    @Test func verify() throws {
        // Enciphered PIN data is as long as the ICC PIN encipherment key's modulus; no Le (case 3).
        let enciphered = [UInt8](repeating: 0x3C, count: 128)
        let command = try CommandAPDU.verify(pinData: enciphered, format: .enciphered)
        #expect(Array(command.bytes.prefix(5)) == hex("0020008880"))
        #expect(command.apduCase == .three)
        #expect(throws: APDUError.invalidParameter) { try CommandAPDU.verify(pinData: [0x24], format: .plaintext) }
        #expect(throws: APDUError.invalidParameter) { try CommandAPDU.verify(pinData: [], format: .enciphered) }
        #expect(throws: APDUError.invalidParameter) { try CommandAPDU.verify(plaintextPIN: "123") }
        #expect(throws: APDUError.invalidParameter) { try CommandAPDU.verify(plaintextPIN: "12a4") }
        let error = apduError { _ = try CommandAPDU.verify(plaintextPIN: "98765432109876") }
        #expect(error.map { !"\($0)".contains("98765432109876") } ?? false)
    }

    @Test func builderParameterChecks() {
        #expect(throws: APDUError.invalidParameter) { try CommandAPDU.readRecord(0, sfi: 1) }
        #expect(throws: APDUError.invalidParameter) { try CommandAPDU.readRecord(1, sfi: 0) }
        #expect(throws: APDUError.invalidParameter) { try CommandAPDU.readRecord(1, sfi: 31) }
        #expect(throws: APDUError.invalidParameter) { try CommandAPDU.select(name: []) }
        #expect(throws: APDUError.invalidParameter) {
            try CommandAPDU.select(name: [UInt8](repeating: 0xA0, count: 17))
        }
        #expect(throws: APDUError.dataTooLong) {
            try CommandAPDU.generateAC(.arqc, cdolData: [UInt8](repeating: 0, count: 70_000))
        }
    }

    @Test func getDataOneByteTag() {
        #expect(CommandAPDU.getData(tag: 0x0042).bytes == hex("80CA004200"))
    }

    // MARK: Vectors from an independent implementation

    struct Vector: Decodable, Sendable, CustomTestStringConvertible {
        struct Args: Decodable, Sendable {
            var name: String?
            var occurrence: String?
            var record: UInt8?
            var sfi: UInt8?
            var tag: String?
            var type: String?
            var cda: Bool?
            var cdolData: String?
            var pdolData: String?
            var pin: String?
        }
        var builder: String
        var args: Args
        var bytes: String
        var testDescription: String { "\(builder) -> \(bytes.prefix(16))" }
    }

    struct VectorFile: Decodable {
        var provenance: String
        var vectors: [Vector]
    }

    static let vectors: [Vector] = {
        (try? VectorFiles.load("apdu-builders", as: VectorFile.self))?.vectors ?? []
    }()

    @Test func vectorsLoaded() {
        #expect(Self.vectors.count == 25)
    }

    @Test(arguments: vectors)
    func matchesEmvPackage(_ vector: Vector) throws {
        let a = vector.args
        let command: CommandAPDU
        switch vector.builder {
        case "select":
            command = try CommandAPDU.select(
                name: hex(a.name ?? ""), occurrence: a.occurrence == "next" ? .next : .first)
        case "readRecord":
            command = try CommandAPDU.readRecord(a.record ?? 0, sfi: a.sfi ?? 0)
        case "getData":
            command = CommandAPDU.getData(tag: UInt16(a.tag ?? "", radix: 16) ?? 0)
        case "generateAC":
            let type: CommandAPDU.CryptogramRequest = a.type == "arqc" ? .arqc : a.type == "tc" ? .tc : .aac
            command = try CommandAPDU.generateAC(type, cdaRequested: a.cda ?? false, cdolData: hex(a.cdolData ?? ""))
        case "getProcessingOptions":
            command = try CommandAPDU.getProcessingOptions(pdolData: hex(a.pdolData ?? ""))
        case "verifyPlaintext":
            command = try CommandAPDU.verify(plaintextPIN: a.pin ?? "")
        default:
            Issue.record("unknown builder \(vector.builder)")
            return
        }
        #expect(command.bytes.hexString == vector.bytes)
    }
}

@Suite struct ResponseAndStatusWordTests {
    @Test func responseRoundTrip() throws {
        let bytes = hex("6F1A840E325041592E5359532E4444463031A508BF0C05610342010190 00")
        let response = try ResponseAPDU(bytes: bytes)
        #expect(response.statusWord == .success)
        #expect(response.isSuccess)
        #expect(response.data.count == bytes.count - 2)
        #expect(response.bytes == bytes)
        #expect("\(response)" == "ResponseAPDU(28 data bytes, SW 9000 (Success))")
        let bare = try ResponseAPDU(bytes: [0x6A, 0x82])
        #expect(bare.data.isEmpty)
        #expect(bare.statusWord == .fileNotFound)
        #expect(ResponseAPDU(statusWord: .fileNotFound).bytes == [0x6A, 0x82])
    }

    @Test func families() {
        let available = StatusWord(0x6110)
        #expect(available.isSuccess)
        #expect(available.bytesAvailable == 16)
        #expect(StatusWord(0x6100).bytesAvailable == 256)
        #expect(StatusWord.bytesAvailable(256) == StatusWord(0x6100))
        #expect(available.meaning == "16 response bytes still available")

        let wrongLe = StatusWord(0x6C1C)
        #expect(wrongLe.exactLength == 28)
        #expect(wrongLe.isError)
        #expect(StatusWord.wrongLe(exact: 28) == wrongLe)
        #expect(wrongLe.meaning == "Wrong Le, exact length is 28")

        let tries = StatusWord(0x63C2)
        #expect(tries.triesLeft == 2)
        #expect(tries.isWarning)
        #expect(!tries.isSuccess)
        #expect(StatusWord.verificationFailed(triesLeft: 2) == tries)
        #expect(tries.meaning == "Verification failed, 2 tries left")
        #expect(StatusWord(0x6300).triesLeft == nil)
        #expect(StatusWord(0x9000).bytesAvailable == nil)
    }

    @Test func classification() {
        #expect(StatusWord.success.isSuccess)
        #expect(StatusWord.selectedFileInvalidated.isWarning)
        #expect(!StatusWord.selectedFileInvalidated.isSuccess)
        for sw in [StatusWord.wrongLength, .conditionsOfUseNotSatisfied, .fileNotFound, .instructionNotSupported] {
            #expect(sw.isError)
            #expect(!sw.isSuccess)
        }
    }

    @Test(arguments: [
        (StatusWord.success, 0x9000, "Success"),
        (.selectedFileInvalidated, 0x6283, "Selected file invalidated"),
        (.authenticationFailed, 0x6300, "Authentication failed"),
        (.executionError, 0x6400, "Execution error, memory unchanged"),
        (.memoryFailure, 0x6581, "Memory failure"),
        (.wrongLength, 0x6700, "Wrong length"),
        (.securityStatusNotSatisfied, 0x6982, "Security status not satisfied"),
        (.authenticationMethodBlocked, 0x6983, "Authentication method blocked"),
        (.referencedDataInvalidated, 0x6984, "Referenced data invalidated"),
        (.conditionsOfUseNotSatisfied, 0x6985, "Conditions of use not satisfied"),
        (.commandNotAllowedNoCurrentEF, 0x6986, "Command not allowed, no current EF"),
        (.incorrectSecureMessagingDataObjects, 0x6988, "Incorrect secure messaging data objects"),
        (.functionNotSupported, 0x6A81, "Function not supported"),
        (.fileNotFound, 0x6A82, "File or application not found"),
        (.recordNotFound, 0x6A83, "Record not found"),
        (.incorrectP1P2, 0x6A86, "Incorrect parameters P1-P2"),
        (.referencedDataNotFound, 0x6A88, "Referenced data not found"),
        (.instructionNotSupported, 0x6D00, "Instruction code not supported or invalid"),
        (.classNotSupported, 0x6E00, "Class not supported"),
        (.noPreciseDiagnosis, 0x6F00, "No precise diagnosis"),
    ])
    func named(_ sw: StatusWord, _ raw: Int, _ meaning: String) {
        #expect(Int(sw.rawValue) == raw)
        #expect(sw.meaning == meaning)
        #expect(sw.description == "\([sw.sw1, sw.sw2].hexString) (\(meaning))")
    }

    @Test func unnamedFallsBackToCategory() {
        #expect(StatusWord(0x6A99).meaning == "Wrong parameters P1-P2")
        #expect(StatusWord(0x1234).meaning == "Unknown status")
    }
}

@Suite struct InstructionTests {
    @Test func buildersCarryTheirNamedInstruction() throws {
        #expect(CommandAPDU.selectPPSE.instruction == .select)
        #expect(try CommandAPDU.readRecord(1, sfi: 1).instruction == .readRecord)
        #expect(try CommandAPDU.readRecord(1, sfi: 1).instruction.description == "READ RECORD")
        #expect(try CommandAPDU(cla: 0x80, ins: 0xA8, p1: 0, p2: 0, data: [0x83, 0x00]).instruction.name
            == "GET PROCESSING OPTIONS")
        #expect(Instruction(rawValue: 0x5C).name == nil)
        #expect(Instruction(rawValue: 0x5C).description == "INS 5C")
    }
}
