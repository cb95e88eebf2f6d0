import EMV
import Testing

/// Types that hold keys or PIN data show none of it through `description`, `String(reflecting:)` or `dump`.
@Suite struct RedactionTests {
    static let issuerKey = [UInt8](hex: "0123456789ABCDEFFEDCBA9876543210")!

    /// Every printed form of `value`: interpolation, reflection and `dump`.
    static func printedForms(of value: some Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return ["\(value)", String(reflecting: value), dumped]
    }

    @Test func cardKeysNeverPrint() throws {
        let card = try CardCryptograms(
            version: .visa18, issuerMasterKeyAC: Self.issuerKey, issuerMasterKeySMI: Self.issuerKey,
            issuerMasterKeySMC: Self.issuerKey, pan: "4761739001010010", psn: "01")
        let secrets = [Self.issuerKey, card.iccMasterKeys.ac, card.iccMasterKeys.smi, card.iccMasterKeys.smc]
            .map(\.hexString)
        for text in Self.printedForms(of: card) + Self.printedForms(of: card.iccMasterKeys) {
            for secret in secrets {
                #expect(!text.uppercased().contains(secret), "\(text)")
            }
            #expect(!text.contains("4761739001010010"), "\(text)")
        }
        // `dump` would print the raw key bytes as decimal arrays, which the hex checks above cannot see.
        #expect(Mirror(reflecting: card.iccMasterKeys).children.isEmpty)
        #expect(Mirror(reflecting: card).children.map(\.label) == ["version"])
    }

    @Test func verifyCommandNeverPrintsItsPINBlock() throws {
        let pinBlock: [UInt8] = [0x24, 0x12, 0x34, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let verify = try CommandAPDU.verify(pinData: pinBlock, format: .plaintext)
        for text in Self.printedForms(of: verify) {
            #expect(!text.uppercased().contains(pinBlock.hexString), "\(text)")
        }
        #expect(!Mirror(reflecting: verify).children.contains { $0.label == "data" })
    }
}
