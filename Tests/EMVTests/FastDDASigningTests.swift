import EMV
import Testing

/// The card side of Visa fDDA: signatures under format '95' that the terminal opens as real Visa cards' are opened.
@Suite struct FastDDASigningTests {
    @Test func fDDASignatureRecoversWithFormat95AndVerifies() throws {
        let iccKey = try ODAFixtures.keys.icc("icc1024e3")
        let input = try SignedDynamicApplicationData.fDDATerminalDynamicData(
            unpredictableNumber: [0x12, 0x34, 0x56, 0x78],
            amountAuthorised: [0x00, 0x00, 0x00, 0x00, 0x12, 0x34],
            transactionCurrencyCode: [0x09, 0x78],
            cardAuthenticationRelatedData: [0x01, 0x8C, 0xC9, 0xF8, 0x07, 0x84, 0x00]
        )
        let signed = try iccKey.signFastDynamicApplicationData(iccDynamicNumber: [0x00, 0x2A], terminalDynamicData: input)
        #expect(signed.count == iccKey.modulusLength)
        // '05' is DDA's format: a terminal expecting it rejects the fDDA block.
        #expect(throws: ODAError.badFormat) { try SignedDynamicApplicationData(recovering: signed, with: iccKey.publicKey) }
        let recovered = try SignedDynamicApplicationData(
            recovering: signed, with: iccKey.publicKey, format: SignedDynamicApplicationData.fDDAFormat)
        try recovered.verify(terminalDynamicData: input)
        #expect(try recovered.iccDynamicNumber() == [0x00, 0x2A])
        #expect(throws: ODAError.hashMismatch) { try recovered.verify(terminalDynamicData: input.dropLast() + [0x01]) }
    }

    @Test func fDDADynamicNumberMustBeTwoToEightBytes() throws {
        let iccKey = try ODAFixtures.keys.icc("icc1024e3")
        #expect(throws: ODAError.invalidInput) {
            try iccKey.signFastDynamicApplicationData(iccDynamicNumber: [0x01], terminalDynamicData: [])
        }
        #expect(throws: ODAError.invalidInput) {
            try iccKey.signFastDynamicApplicationData(iccDynamicNumber: [UInt8](repeating: 0, count: 9), terminalDynamicData: [])
        }
    }
}
