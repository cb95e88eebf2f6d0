import EMV
import Testing

@Suite struct TLVPrettyPrinterTests {
    private func bytes(_ hex: String) -> [UInt8] { TLVTestVectors.bytes(hex) }

    @Test func printsARealVisaResponseForKernel3() throws {
        let response = try RealCardVectors.load().visa.response("GET PROCESSING OPTIONS").bytes
        let text = TLVPrettyPrinter(kernel: .c3).format(try TLV.parse(response))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 10)
        #expect(lines[0] == "77 Response Message Template Format 2 [198]")
        #expect(lines[1] == "  82 Application Interchange Profile (AIP) [2] 2000")
        #expect(lines[3] == "  57 Track 2 Equivalent Data [19] 492182******6752D******************** (masked)")
        #expect(lines[7] == "  9F36 Application Transaction Counter (ATC) [2] 03A4")
        #expect(lines[9] == "  9F6C Card Transaction Qualifiers (CTQ) [2] 1600")
    }

    @Test func namesFollowTheKernel() throws {
        let record = try TLV.parse(RealCardVectors.load().visa.response("READ RECORD SFI 2 record 6").bytes)
        let visa = TLVPrettyPrinter(kernel: .c3).format(record)
        #expect(visa.contains("9F69 Card Authentication Related Data [7] 01B4CBA8D61600"))
        #expect(visa.contains("5F24 Application Expiration Date [3] 250228"))
        let mastercard = TLVPrettyPrinter(kernel: .c2).format(record)
        #expect(mastercard.contains("9F69 UDOL [7] 01B4CBA8D61600"))  // not a valid DOL, so shown as hex
        let generic = TLVPrettyPrinter().format(record)
        #expect(generic.contains("9F69 UDOL [C-2] | Card Authentication Related Data [C-3] [7] 01B4CBA8D61600"))
        #expect(TLVPrettyPrinter().format(bytes: bytes("DF7F0101")) == "DF7F (unknown tag) [1] 01")
    }

    @Test func showsTextDigitsAndDataObjectLists() throws {
        let fci = try TLV.parse(RealCardVectors.load().visa.response("SELECT A0000000031010").bytes)
        let lines = TLVPrettyPrinter(kernel: .c3).format(fci).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "6F File Control Information (FCI) Template [93]",
                "  84 Dedicated File (DF) Name [7] A0000000031010",
                "  A5 File Control Information (FCI) Proprietary Template [82]",
                "    50 Application Label [16] \"VISA DEBIT      \"",
                "    87 Application Priority Indicator [1] 02",
                "    9F38 Processing Options Data Object List (PDOL) [24] DOL 9F66(4) 9F02(6) 9F03(6) 9F1A(2) 95(5) 5F2A(2) 9A(3) 9C(1) 9F37(4)",
                "    5F2D Language Preference [2] \"en\"",
                "    BF0C File Control Information (FCI) Issuer Discretionary Data [26]",
                "      9F5A Application Program Identifier (Program ID) [5] 3108260826",
                "      9F0A Application Selection Registered Proprietary Data (ASRPD) [8] 0001050100000000",
                "      BF63 (unknown tag) [4]",
                "        DF20 (unknown tag) [1] 80",
            ])
        #expect(
            TLVPrettyPrinter().format(bytes: bytes("5F2D 03 65 22 01"))
                == "5F2D Language Preference [3] \"e\\x22\\x01\"")
        #expect(TLVPrettyPrinter().format(bytes: bytes("9F20 04 1234567F")).contains("[redacted]"))
    }

    @Test func neverPrintsCardDataInClear() throws {
        let vectors = try RealCardVectors.load()
        for card in vectors.cards {
            let pan = card.pan
            let middle = String(pan.dropFirst(6).dropLast(4))
            let asciiHex = Array(pan.utf8).hexString
            let asciiMiddleHex = Array(middle.utf8).hexString
            for kernel in [Kernel.generic, .c2, .c3, .c4] {
                let printer = TLVPrettyPrinter(kernel: kernel)
                for response in card.responses {
                    let text = printer.format(try TLV.parse(response.bytes))
                    for secret in [pan, middle, asciiHex, asciiMiddleHex] {
                        #expect(!text.contains(secret), "\(card.card) \(response.step) under \(kernel)")
                    }
                }
            }
        }
    }

    @Test func masksEachKindOfSensitiveData() throws {
        let printer = TLVPrettyPrinter(kernel: .c2)
        let record = try TLV.parse(RealCardVectors.load().mastercard.response("READ RECORD SFI 1 record 1").bytes)
        let text = printer.format(record)
        #expect(text.contains("56 Track 1 Data [52] B537505******0110^********************************** (masked)"))
        #expect(text.contains("9F6B Track 2 Data [19] 537505******0110D******************** (masked)"))
        #expect(!text.contains("2403221"))  // the expiry and discretionary data after the PAN

        #expect(
            printer.format(bytes: bytes("5A08 4761739001010119"))
                == "5A Application Primary Account Number (PAN) [8] 476173******0119 (masked)")
        #expect(printer.format(bytes: bytes("5A0A 4761739001010119FFFF")).hasSuffix("[10] 476173******0119 (masked)"))
        // Too short to show ten digits safely, or not digits at all: nothing shown.
        #expect(printer.format(bytes: bytes("5A05 1234567890")).hasSuffix("[5] ********** (masked)"))
        #expect(printer.format(bytes: bytes("5A02 12AB")).hasSuffix("[2] **** (masked)"))
        #expect(printer.format(bytes: bytes("57 04 1234ABCD")).hasSuffix("[4] ******** (masked)"))
        let name = printer.format(bytes: bytes("5F20 0A" + Array("SMITH/JOHN".utf8).hexString))
        #expect(name == "5F20 Cardholder Name [10] [redacted] (masked)")
        #expect(
            printer.format(bytes: bytes("99 08 041234FFFFFFFFFF"))
                == "99 Transaction Personal Identification Number (PIN) Data [8] [redacted] (masked)")
        #expect(printer.format(bytes: bytes("9F1F 04 31323334")).hasSuffix("[redacted] (masked)"))
        // 9F6B is a CVM limit for Kernel 3, but Track 2 Data for Kernel 2: masked either way.
        #expect(
            TLVPrettyPrinter(kernel: .c3).format(bytes: bytes("9F6B 06 000000002500")).hasSuffix(
                "************ (masked)"))
    }

    @Test func printsNestedTreesFromANode() throws {
        let fci = try TLV.parseOne(bytes("6F 07 A5 05 88 01 02 9C 00"))
        #expect(
            TLVPrettyPrinter(indentation: "-").format(fci) == """
                6F File Control Information (FCI) Template [7]
                -A5 File Control Information (FCI) Proprietary Template [5]
                --88 Short File Identifier (SFI) [1] 02
                --9C Transaction Type [0]
                """)
    }

    @Test func rendersParseErrorsWithoutValues() {
        let text = TLVPrettyPrinter().format(bytes: bytes("5A08 49218280948967"))
        #expect(text.hasPrefix("TLVError.lengthExceedsData at offset 1"))
        #expect(!text.contains("4921828094"))
    }
}

@Suite struct MaskedHexTests {
    @Test func masksSensitiveValuesKeepsTheRest() {
        // 70 { 5A 4761739001010010, 5F24 251231, 57 4761739001010010D25122010000 }
        let record = hexBytes("70235A0847617390010100105F24032512315711" + "4761739001010010D2512201000000000F")
        let hex = TLVPrettyPrinter().maskedHex(record)
        #expect(!hex.contains("4761739001010010"))
        #expect(hex.hasPrefix("70235A08" + String(repeating: "*", count: 16) + "5F2403251231" + "5711"))
        #expect(hex.count == record.count * 2)
    }

    @Test func unparsableBytesAreMaskedWhole() {
        #expect(TLVPrettyPrinter().maskedHex(hexBytes("5A0847617390")) == String(repeating: "*", count: 12))
        #expect(TLVPrettyPrinter().maskedHex([]) == "")
    }
}
