import EMV
import Testing

@Suite struct DOLTests {
    private func bytes(_ hex: String) -> [UInt8] { TLVTestVectors.bytes(hex) }

    private func tags(_ list: DataObjectList) -> [Tag] { list.map(\.tag) }

    @Test func parsesARealPDOLAndBuildsTheGPODataTheRealReaderSent() throws {
        let visa = try RealCardVectors.load().visa
        let fci = try TLV.parse(visa.response("SELECT A0000000031010").bytes)
        let pdol = try DataObjectList(try #require(fci.first(.pdol)).value)
        #expect(pdol.description == "9F66(4) 9F02(6) 9F03(6) 9F1A(2) 95(5) 5F2A(2) 9A(3) 9C(1) 9F37(4)")
        #expect(pdol.relatedDataLength == 33)
        // The terminal data the published reader used (its log lists them), and the GPO command it sent.
        let terminal: [Tag: [UInt8]] = [
            .terminalTransactionQualifiers: bytes("27000000"), .amountAuthorised: bytes("000000001000"),
            .amountOther: bytes("000000000000"), .terminalCountryCode: bytes("0978"),
            .terminalVerificationResults: bytes("0000000000"), .transactionCurrencyCode: bytes("0978"),
            .transactionDate: bytes("230301"), .transactionType: bytes("00"), .unpredictableNumber: bytes("38393031"),
        ]
        let command = bytes(visa.response("GET PROCESSING OPTIONS").command)
        let commandData = try TLV.parseOne(command[5..<(command.count - 1)])
        #expect(commandData.tag == .commandTemplate)
        #expect(pdol.relatedData(from: terminal, kernel: .c3) == Array(commandData.value))
    }

    @Test func splitsRelatedDataBackIntoTheValuesTheListAskedFor() throws {
        let cdol2 = try DataObjectList(bytes("910A8A0295059F37049F4C08"))
        let data = bytes("00112233445566778899" + "3030" + "0000008000" + "CAFEBABE" + "0102030405060708")
        let values = try #require(cdol2.values(in: data))
        #expect(
            values.map(\.tag) == [
                .issuerAuthenticationData, .authorisationResponseCode, .terminalVerificationResults,
                .unpredictableNumber, .iccDynamicNumber,
            ])
        #expect(
            values.map { $0.value.hexString } == [
                "00112233445566778899", "3030", "0000008000", "CAFEBABE", "0102030405060708",
            ])
        #expect(Array(values.lazy.flatMap(\.value)) == data)
        #expect(cdol2.values(in: Array(data.dropLast())) == nil)
        #expect(cdol2.values(in: data + [0]) == nil)
        #expect(try DataObjectList([UInt8]()).values(in: [])?.isEmpty == true)
    }

    @Test func parsesRealCDOLs() throws {
        let record = try TLV.parse(RealCardVectors.load().mastercard.response("READ RECORD SFI 2 record 1").bytes)
        let cdol1 = try DataObjectList(try #require(record.first(.cdol1)).value)
        #expect(
            tags(cdol1) == [
                .amountAuthorised, .amountOther, .terminalCountryCode, .terminalVerificationResults,
                .transactionCurrencyCode, .transactionDate, .transactionType, .unpredictableNumber, .terminalType,
                .dataAuthenticationCode, .iccDynamicNumber, .cvmResults, .transactionTime, 0x9F7C,
            ])
        #expect(cdol1.relatedDataLength == 66)
        let cdol2 = try DataObjectList(try #require(record.first(.cdol2)).value)
        #expect(cdol2.description == "91(10) 8A(2) 95(5) 9F37(4) 9F4C(8)")
        #expect(cdol2.relatedDataLength == 29)
        #expect(cdol2.bytes == Array(try #require(record.first(.cdol2)).value))
    }

    private struct EmvUtilsVectors: Decodable {
        struct Case: Decodable {
            var name: String
            var dol: String
            var values: [String: String]
            var related: String
        }

        var provenance: String
        var cases: [Case]
    }

    @Test func matchesEmvUtilsDOLTests() throws {
        let vectors = try VectorFiles.load("dol-emv-utils", as: EmvUtilsVectors.self)
        for vector in vectors.cases {
            var values: [Tag: [UInt8]] = [:]
            for (tag, value) in vector.values { values[try #require(Tag(bytes: bytes(tag)))] = bytes(value) }
            let dol = try DataObjectList(bytes(vector.dol))
            #expect(dol.relatedData(from: values).hexString == vector.related, "\(vector.name)")
        }
    }

    /// Hand-checked against EMV Book 3 section 5.4, one rule at a time.
    @Test(
        arguments: [
            // n: left-padded with 00, leftmost bytes dropped when too long.
            ("9F0206", "1000", "000000001000"),
            ("9F0204", "000000123456", "00123456"),
            // cn: right-padded with FF, rightmost bytes dropped.
            ("5A0A", "4761739001010119", "4761739001010119FFFF"),
            ("5A04", "4761739001010119", "47617390"),
            // b, an, ans: right-padded with 00, rightmost bytes dropped.
            ("9F3702", "DEADBEEF", "DEAD"),
            ("9F3706", "DEADBEEF", "DEADBEEF0000"),
            ("8A03", "3030", "303000"),
            ("5003", "56495341", "564953"),
            // Exact length: unchanged; absent: zeros; zero length: nothing.
            ("9A03", "230301", "230301"),
            ("9F4C08", nil, "0000000000000000"),
            ("9A00", "230301", ""),
            // A tag the dictionary does not know counts as binary.
            ("DF7F03", "01", "010000"),
            // A constructed tag gets zeros even when the source has a value.
            ("E003", "5A0112", "000000"),
        ] as [(String, String?, String)])
    func buildsValuesByFormat(dol: String, value: String?, expected: String) throws {
        let list = try DataObjectList(bytes(dol))
        let data = list.relatedData { _ in value.map(bytes) }
        #expect(data.hexString == expected)
    }

    @Test func formatsComeFromTheKernel() throws {
        // 9F5D is the numeric Available Offline Spending Amount for Kernel 3, binary data for Kernel 2.
        let list = try DataObjectList(bytes("9F5D06"))
        let source: [Tag: [UInt8]] = [.availableOfflineSpendingAmount: bytes("0100")]
        #expect(list.relatedData(from: source, kernel: .c3).hexString == "000000000100")
        #expect(list.relatedData(from: source, kernel: .c2).hexString == "010000000000")
        #expect(list.relatedData(from: source).hexString == "010000000000")
    }

    @Test func parsedDataIsAValueSource() throws {
        // The card side: the terminal's CDOL1 data arrives as TLV in some protocols, or a kernel keeps its data
        // as TLV; either way a parse can feed a list directly.
        let terminalData = try TLV.parse(bytes("9F02 06 000000002500 E0 07 9F37 04 11223344 5F2A 02 0978"))
        let list = try DataObjectList(bytes("9F0206 9F3704 5F2A02 9C01"))
        #expect(list.relatedData(from: terminalData).hexString == "000000002500" + "11223344" + "0978" + "00")
        #expect(terminalData.value(for: 0xE0) == nil)
    }

    @Test func roundTripsThroughBytes() throws {
        let list = DataObjectList(entries: [.init(tag: .amountAuthorised, length: 6), .init(tag: 0x9F4B, length: 200)])
        #expect(list.bytes.hexString == "9F02069F4B81C8")
        #expect(try DataObjectList(list.bytes) == list)
        #expect(try DataObjectList([UInt8]()).isEmpty)
    }

    private func expectError(
        _ hex: String, _ expected: TLVError, at offset: Int, rules: EncodingRules = .strict,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let input = bytes(hex)
        let error = #expect(throws: TLVError.self, sourceLocation: sourceLocation) {
            _ = try DataObjectList(input, rules: rules)
        }
        #expect(error?.code == expected.code, sourceLocation: sourceLocation)
        #expect(error?.offset == offset, sourceLocation: sourceLocation)
    }

    @Test func malformedLists() throws {
        expectError("9F", .truncatedTag, at: 0)
        expectError("9F0206 9F", .truncatedTag, at: 3)
        expectError("9F02", .truncatedLength, at: 2)
        expectError("9F0206 9F0281", .truncatedLength, at: 5)
        expectError("9F0206 00 01", .invalidTag, at: 3)
        expectError("9F02 80", .indefiniteLength, at: 2)
        expectError("9F02 83000006", .lengthTooLong, at: 2)
        expectError("9F02 8106", .nonMinimalLength, at: 2)
        expectError("9F8181 06", .tagTooLong, at: 0)
        #expect(try DataObjectList(bytes("9F02 8106"), rules: .lenient).first?.length == 6)
    }
}
