import EMV
import Testing

/// The issuer side's reading of field 55: cryptogram input and version from the chip data alone.
@Suite struct AuthorizationDataTests {
    /// The module example's CVN 18 transaction, written as field 55 in an unusual order with extra tags.
    static let field55: [UInt8] = hexBytes(
        "9F2608769577B5ABE9FE62" + "9F36020FFF" + "82021800"
            + "9F100706011203A0B800" + "9F3704" + "52BF4585" + "9A03991231" + "9C0101" + "5F2A020840"
            + "95058000048000" + "9F1A020840" + "9F0306000000000000" + "9F0206000000009999" + "5F340100")

    @Test func readsTheModuleExampleAndItsARQCVerifies() throws {
        let nodes = try TLV.parse(Self.field55)
        let version = try CryptogramVersion(
            issuerApplicationData: Array(try #require(nodes.first(.issuerApplicationData)).value),
            applicationIdentifier: hexBytes("A0000000031010"))
        #expect(version == .visa18)
        let data = try CryptogramData(version: version, authorizationData: nodes)
        let card = try CardCryptograms(
            version: version,
            issuerMasterKeyAC: hexBytes("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
            issuerMasterKeySMI: hexBytes("BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"),
            issuerMasterKeySMC: hexBytes("CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC"),
            pan: "1234567890123456", psn: "00")
        #expect(try card.verifyAC(hexBytes("769577B5ABE9FE62"), data: data))
        #expect(try !card.verifyAC(hexBytes("769577B5ABE9FE63"), data: data))
    }

    @Test func issuerKeysAndCheckFromTheAuthorizationDataAlone() throws {
        let nodes = try TLV.parse(Self.field55 + hexBytes("8407A0000000031010"))
        func card(psn: String) throws -> CardCryptograms {
            try CardCryptograms(
                authorizationData: nodes,
                issuerMasterKeyAC: hexBytes("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
                issuerMasterKeySMI: hexBytes("BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"),
                issuerMasterKeySMC: hexBytes("CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC"),
                pan: "1234567890123456", psn: psn)
        }
        #expect(try card(psn: "00").version == .visa18)
        #expect(try card(psn: "00").verifyAC(authorizationData: nodes))
        #expect(try !card(psn: "01").verifyAC(authorizationData: nodes))
        var serializer = TLV.Serializer()
        for node in nodes where node.tag != .applicationCryptogram { try serializer.append(node) }
        #expect(throws: CryptoError.invalidParameter) {
            try card(psn: "00").verifyAC(authorizationData: try TLV.parse(serializer.bytes))
        }
    }

    @Test func amountOtherDefaultsToZero() throws {
        let withoutOther = try TLV.parse(Self.field55).filter { $0.tag != .amountOther }
        var serializer = TLV.Serializer()
        for node in withoutOther { try serializer.append(node) }
        let data = try CryptogramData(version: .visa18, authorizationData: try TLV.parse(serializer.bytes))
        #expect(data.amountOther == [UInt8](repeating: 0, count: 6))
    }

    @Test(arguments: [EMV.Tag.amountAuthorised, .unpredictableNumber, .applicationTransactionCounter, .issuerApplicationData])
    func aMissingElementIsNamed(_ missing: EMV.Tag) throws {
        var serializer = TLV.Serializer()
        for node in try TLV.parse(Self.field55) where node.tag != missing { try serializer.append(node) }
        let nodes = try TLV.parse(serializer.bytes)
        let error = try #require(throws: CryptoError.invalidParameter) {
            try CryptogramData(version: .visa18, authorizationData: nodes)
        }
        #expect(error.message.contains(missing.description))
    }

    @Test func versionFromARealVisaIADAndAMastercardOne() throws {
        // Lloyds Visa debit GPO (tlv-real-cards.json): IAD 06 04 0A 03 A02000, CVN 10.
        #expect(try CryptogramVersion(issuerApplicationData: hexBytes("06040A03A02000"),
                                      applicationIdentifier: hexBytes("A0000000031010")) == .visa10)
        let mastercard = hexBytes("0114A50000000000" + "0000" + "0000000000000000")
        #expect(try CryptogramVersion(issuerApplicationData: mastercard,
                                      applicationIdentifier: hexBytes("A0000000041010")) == .mastercard20)
        #expect(throws: CryptoError.invalidParameter) {
            try CryptogramVersion(issuerApplicationData: hexBytes("06040A03A02000"),
                                  applicationIdentifier: hexBytes("A0000000251010"))
        }
        #expect(throws: CryptoError.invalidParameter) {
            try CryptogramVersion(issuerApplicationData: hexBytes("06047F03A02000"),
                                  applicationIdentifier: hexBytes("A0000000031010"))
        }
        #expect(throws: CryptoError.invalidFieldLength) {
            try CryptogramVersion(issuerApplicationData: hexBytes("0114"), applicationIdentifier: hexBytes("A0000000041010"))
        }
    }
}
