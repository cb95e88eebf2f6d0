import EMV
import Foundation

/// The EMV walkthrough `tap demo` prints until the card applet and reader kernel land: the card's keys, the
/// reader's GET PROCESSING OPTIONS built from a real card's PDOL, an ARQC (Visa CVN 18) generated and verified
/// with its ARPC, and a real card's GPO response decoded. Keys are test keys; only their check values are printed.
struct EMVWalkthrough {
    /// The test issuer's master keys (AC, secure messaging integrity and confidentiality).
    static let issuerMasterKeyAC = [UInt8](hex: "0123456789ABCDEFFEDCBA9876543210")!
    static let issuerMasterKeySMI = [UInt8](hex: "1123456789ABCDEFFEDCBA9876543211")!
    static let issuerMasterKeySMC = [UInt8](hex: "2123456789ABCDEFFEDCBA9876543212")!
    /// Visa's published test card number.
    static let pan = "4761739001010010"
    static let psn = "01"

    /// SELECT A0000000031010 and GET PROCESSING OPTIONS responses of a real, expired Visa debit card, from a
    /// published NFC log (see Tests/EMVTests/Vectors/tlv-real-cards.json for the provenance).
    static let realSelectResponse = [UInt8](
        hex: "6F5D8407A0000000031010A5525010564953412044454249542020202020208701029F38189F66049F02069F03069F1A0295055F2A029A039C019F37045F2D02656EBF0C1A9F5A0531082608269F0A080001050100000000BF6304DF200180"
    )!
    static let realGPOResponse = [UInt8](
        hex: "7781C68202200094041003060057134921828094896752D25022013650000000000F9F100706040A03A020009F2608569F946D585CB0139F2701809F360203A49F4B818076F770B228B28C0B5A3F2B08C3F2EC3BE6DE27A2708DE06180FDAAEC5482E38CD62D5FE43CFCC8C3FF7462D7BE99DEB035A0ABE5D0F82BDADBFB5D81377C42AE64F3339893DF51E55F635251D1E1B0F4DB959E60407684E03C92B5B0C06FCF5FA5BB366EC660F9D0B0DC3795EAE505B5D2C982352C762F06C32647E0068F28469F6C0216009000"
    )!

    var amount: Amount
    var country: Country
    var date: EMVDate
    var atc: UInt16
    var unpredictableNumber: [UInt8]

    /// Runs every step, writing readable text through `print`.
    func run(print: (String) -> Void) throws {
        // 1. The card's keys: ICC master keys derived from the issuer's (option A for CVN 18).
        let card = try CardCryptograms(
            version: .visa18,
            issuerMasterKeyAC: Self.issuerMasterKeyAC,
            issuerMasterKeySMI: Self.issuerMasterKeySMI,
            issuerMasterKeySMC: Self.issuerMasterKeySMC,
            pan: Self.pan,
            psn: Self.psn
        )
        let atcBytes = [UInt8(atc >> 8), UInt8(atc & 0xFF)]
        let sessionKey = try card.acSessionKey(atc: atcBytes)
        print(heading(1, "Card keys (Visa CVN 18, test issuer)"))
        print(row("Card", "\(try PAN(Self.pan)) PSN \(Self.psn)"))
        print(row("Issuer master key (AC)", "KCV \(try TDESKey(Self.issuerMasterKeyAC).checkValue().hexString)"))
        print(row("ICC master key (AC), option A", "KCV \(try TDESKey(card.iccMasterKeys.ac).checkValue().hexString)"))
        print(row("AC session key for ATC \(atcBytes.hexString)", "KCV \(try TDESKey(sessionKey).checkValue().hexString)"))

        // 2. The reader reads the PDOL from the card's FCI and fills it from its own data.
        let fci = try TLV.parse(Self.realSelectResponse)
        guard let pdolNode = fci.first(0x9F38) else { throw WalkthroughError("the FCI has no PDOL") }
        let pdol = try DataObjectList(pdolNode.value)
        let ttq: TerminalTransactionQualifiers = [.emvModeSupported, .onlinePINSupported, .signatureSupported,
            .consumerDeviceCVMSupported, .fDDAVersion1Supported]
        let terminalData: [Tag: [UInt8]] = [
            0x9F66: ttq.bytes,
            0x9F02: try amount.n12(),
            0x9F03: try Amount(minorUnits: 0, currency: amount.currency).n12(),
            0x9F1A: country.emvCode,
            0x95: [0, 0, 0, 0, 0],
            0x5F2A: amount.currency.emvCode,
            0x9A: date.n6,
            0x9C: [0x00],
            0x9F37: unpredictableNumber,
        ]
        let pdolData = pdol.relatedData(from: terminalData, kernel: .visa)
        let gpo = try CommandAPDU.getProcessingOptions(pdolData: pdolData)
        print(heading(2, "Reader: GET PROCESSING OPTIONS from a real Visa card's PDOL"))
        print(row("PDOL", pdol.description))
        print(row("Transaction", "\(amount.formatted), \(country.name), \(date), purchase"))
        print(row("TTQ 9F66", "\(ttq.bytes.hexString) (\(ttq.names.joined(separator: ", ")))"))
        print(row("Unpredictable number", unpredictableNumber.hexString))
        print(row("PDOL data (\(pdolData.count) bytes)", pdolData.hexString))
        print(row("Command APDU", gpo.bytes.hexString))

        // 3. The card answers with an ARQC over the PDOL data it received.
        let aip: [UInt8] = [0x20, 0x00]
        let issuerApplicationData = [UInt8](hex: "06011203A00000")!
        let cryptogramData = CryptogramData(
            amountAuthorized: terminalData[0x9F02]!,
            amountOther: terminalData[0x9F03]!,
            terminalCountryCode: terminalData[0x9F1A]!,
            terminalVerificationResults: terminalData[0x95]!,
            transactionCurrencyCode: terminalData[0x5F2A]!,
            transactionDate: terminalData[0x9A]!,
            transactionType: terminalData[0x9C]!,
            unpredictableNumber: unpredictableNumber,
            applicationInterchangeProfile: aip,
            applicationTransactionCounter: atcBytes,
            issuerApplicationData: issuerApplicationData
        )
        let arqc = try card.generateAC(cryptogramData)
        print(heading(3, "Card: ARQC (Visa CVN 18)"))
        print(row("AIP 82", aip.hexString))
        print(row("IAD 9F10", issuerApplicationData.hexString))
        print(row("ARQC 9F26", arqc.hexString))

        // 4. The issuer derives the same keys from its master key and checks the ARQC, then answers with an ARPC.
        let issuer = try CardCryptograms(
            version: .visa18,
            issuerMasterKeyAC: Self.issuerMasterKeyAC,
            issuerMasterKeySMI: Self.issuerMasterKeySMI,
            issuerMasterKeySMC: Self.issuerMasterKeySMC,
            pan: Self.pan,
            psn: Self.psn
        )
        var tampered = cryptogramData
        tampered.amountAuthorized = try Amount(minorUnits: amount.minorUnits + 1, currency: amount.currency).n12()
        let cardStatusUpdate = [UInt8](hex: "00820000")!
        let arpc = try issuer.generateARPC(arqc: arqc, atc: atcBytes, cardStatusUpdate: cardStatusUpdate)
        print(heading(4, "Issuer: verify the ARQC, answer with an ARPC (method 2)"))
        print(row("ARQC verifies", yesNo(try issuer.verifyAC(arqc, data: cryptogramData))))
        print(row("ARQC verifies for amount + 1 minor unit", yesNo(try issuer.verifyAC(arqc, data: tampered))))
        print(row("ARPC (CSU \(cardStatusUpdate.hexString))", arpc.hexString))
        print(row("Card accepts the ARPC", yesNo(try card.verifyARPC(arpc, arqc: arqc, atc: atcBytes, cardStatusUpdate: cardStatusUpdate))))

        // 5. A real card's GPO response, decoded with names; sensitive values stay masked.
        let response = try ResponseAPDU(bytes: Self.realGPOResponse)
        print(heading(5, "A real Visa card's GPO response (\(response.data.count) bytes, status \(response.statusWord)), masked"))
        print(TLVPrettyPrinter(kernel: .visa).format(bytes: response.data))
        let gpoData = try TLV.parse(response.data)
        if let node = gpoData.first(0x82) {
            print(row("AIP means", try ApplicationInterchangeProfile(bytes: node.value).names.joined(separator: ", ")))
        }
        if let node = gpoData.first(0x9F6C) {
            print(row("CTQ means", try CardTransactionQualifiers(bytes: node.value).names.joined(separator: ", ")))
        }
        if let track2 = gpoData.first(0x57) {
            // Parsed to show the typed layer reads it; its description prints only the masked PAN.
            print(row("Track 2 (typed)", "\(try Track2EquivalentData(bytes: track2.value))"))
        }
    }

    private func heading(_ number: Int, _ title: String) -> String { "\n\(number). \(title)" }
    private func row(_ label: String, _ value: String) -> String {
        "   " + label.padding(toLength: 42, withPad: " ", startingAt: 0) + value
    }
    private func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }
}

/// A walkthrough step found its fixed input unusable (a bug, not a user error).
struct WalkthroughError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
