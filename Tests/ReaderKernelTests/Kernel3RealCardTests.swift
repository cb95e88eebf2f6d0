import EMV
import Foundation
import ReaderKernel
import SmartCard
import Testing

/// Kernel 3 against the recorded Lloyds Visa Debit: the kernel asks what a real reader asked, and the card's real fDDA
/// signature verifies under the production CA key 09 only for the transaction it was made for.
@Suite struct Kernel3RealCardTests {
    @Test func recordedTransactionGoesOnlineWithFDDA() async throws {
        let channel = ScriptedChannel(try RealCards.lloydsVisa())
        let result = try await RealCards.kernel().perform(RealCards.euros(1000), over: channel)
        let outcome = result.outcome
        #expect(outcome.status == .onlineRequest)
        #expect(outcome.reason == .onlineAuthorizationRequested)
        #expect(outcome.kernel == .c3)
        #expect(outcome.cardholderVerification == .noCVM)
        #expect(result.events.contains(.offlineDataAuthentication(.succeeded(.fDDA))))
        // SELECT PPSE, SELECT AID, GPO and the four records of the AFL (SFI 2, records 3 to 6).
        let commands = await channel.received
        #expect(commands.map(\.ins) == [0xA4, 0xA4, 0xA8, 0xB2, 0xB2, 0xB2, 0xB2])
        #expect(commands[3].bytes == [0x00, 0xB2, 0x03, 0x14, 0x00])

        let data = try #require(outcome.authorizationData)
        #expect(data.mode == .emv)
        #expect(data.iccValue(.applicationCryptogram) == [UInt8](hex: "569F946D585CB013"))
        #expect(data.iccValue(.cryptogramInformationData) == [0x80])
        #expect(data.iccValue(.applicationTransactionCounter) == [0x03, 0xA4])
        #expect(data.iccValue(.unpredictableNumber) == [0x38, 0x39, 0x30, 0x31])
        #expect(data.iccValue(.amountAuthorised) == [0, 0, 0, 0, 0x10, 0x00])
        #expect(data.iccValue(.transactionDate) == [0x23, 0x03, 0x01])
        #expect(data.iccValue(.dedicatedFileName) == [UInt8](hex: "A0000000031010"))
        #expect(data.iccValue(.issuerApplicationData) == [UInt8](hex: "06040A03A02000"))
        #expect(data.iccValue(.applicationPAN) == nil, "field 55 never carries the PAN")
        #expect(data.iccValue(.track2EquivalentData) == nil, "field 55 never carries track 2")
        #expect(data.pan.digits == "4921828094896752")
        #expect(data.panSequenceNumber == 0x00)
        #expect(data.expiry == (try ExpiryDate(year: 2025, month: 2)))
        #expect(data.track2?.pan == data.pan)
    }

    @Test func sentDataFollowsThePDOLAndTheTTQ() async throws {
        let channel = ScriptedChannel(try RealCards.lloydsVisa())
        _ = try await RealCards.kernel().perform(RealCards.euros(1000), over: channel)
        let gpo = try #require(await channel.received.first { $0.ins == 0xA8 })
        // 83 21 | TTQ 27 80 40 00 with "online cryptogram required" (floor limit 0) | 9F02 | 9F03 | 9F1A 0276 | 95 |
        // 5F2A 0978 | 9A 230301 | 9C 00 | 9F37.
        #expect(
            gpo.data.hexString
                == "8321" + "27804000" + "000000001000" + "000000000000" + "0276" + "0000000000" + "0978" + "230301"
                + "00" + "38393031")
    }

    @Test func tamperedICCCertificateFailsFDDAAndDeclines() async throws {
        // Flip one byte inside the ICC public key certificate (9F46, record 5).
        let rules = try RealCards.lloydsVisa(replacing: ["47461FFCA14B": "47461FFCA14C"])
        let result = try await RealCards.kernel().perform(RealCards.euros(1000), over: ScriptedChannel(rules))
        #expect(result.outcome.status == .declined)
        #expect(result.outcome.reason == .offlineDataAuthenticationFailed)
        #expect(
            result.events.contains {
                if case .offlineDataAuthentication(.failed(.fDDA, _)) = $0 { true } else { false }
            })
    }

    @Test func tamperedIssuerCertificateFailsFDDA() async throws {
        let rules = try RealCards.lloydsVisa(replacing: ["9081F830F056DE40": "9081F830F056DE41"])
        let result = try await RealCards.kernel().perform(RealCards.euros(1000), over: ScriptedChannel(rules))
        #expect(result.outcome.status == .declined)
        #expect(result.outcome.reason == .offlineDataAuthenticationFailed)
    }

    @Test func anotherUnpredictableNumberBreaksTheSignature() async throws {
        let kernel = try RealCards.kernel(unpredictableNumber: [1, 2, 3, 4])
        let result = await kernel.perform(RealCards.euros(1000), over: ScriptedChannel(try RealCards.lloydsVisa()))
        #expect(result.events.contains(.offlineDataAuthentication(.failed(.fDDA, reason: "hashMismatch"))))
        #expect(result.outcome.status == .declined)
    }

    @Test func goOnlineIfODAFailsSendsItOnline() async throws {
        // CTQ 1600 becomes 3600: "go online if offline data authentication fails".
        let rules = try RealCards.lloydsVisa(replacing: ["9F6C021600": "9F6C023600"])
        let kernel = try RealCards.kernel(unpredictableNumber: [1, 2, 3, 4])
        let result = await kernel.perform(RealCards.euros(1000), over: ScriptedChannel(rules))
        #expect(result.outcome.status == .onlineRequest)
        #expect(result.events.contains(.offlineDataAuthentication(.failed(.fDDA, reason: "hashMismatch"))))
    }

    @Test func cardRemovedDuringRecordsAsksToPresentAgain() async throws {
        let channel = ScriptedChannel(
            try RealCards.lloydsVisa(), failing: (4, SmartCardError(code: .cardRemoved, message: "left the field")))
        let result = try await RealCards.kernel().perform(RealCards.euros(1000), over: channel)
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.reason == .cardRemoved)
        #expect(result.outcome.userInterface?.message == .presentCardAgain)
        #expect(result.exchanges.count == 5)
        #expect(result.exchanges.last?.error == SmartCardError.cardRemoved)
    }

    @Test(arguments: [
        (SmartCardError.Code.transmissionFailed, OutcomeReason.transmissionFailed),
        (.malformedResponse, .malformedResponse), (.timedOut, .timedOut),
    ])
    func transportErrorsGiveTryAgain(code: SmartCardError.Code, reason: OutcomeReason) async throws {
        let channel = ScriptedChannel(
            try RealCards.lloydsVisa(), failing: (2, SmartCardError(code: code, message: "x")))
        let result = try await RealCards.kernel().perform(RealCards.euros(1000), over: channel)
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.reason == reason)
    }

    @Test func seePhoneWhenTheWalletWantsCDCVM() async throws {
        var rules = try RealCards.lloydsVisa()
        rules.insert(.ins(0xA8, "6986"), at: 0)
        let result = try await RealCards.kernel().perform(RealCards.euros(6000), over: ScriptedChannel(rules))
        #expect(result.outcome.status == .tryAgain)
        #expect(result.outcome.reason == .consumerDeviceCVMRequired)
        #expect(result.outcome.userInterface == UserInterfaceRequest(message: .seePhone, status: .notReady))
    }

    @Test func overTheCVMLimitTheTTQRequiresACVM() async throws {
        let channel = ScriptedChannel(try RealCards.lloydsVisa())
        let result = try await RealCards.kernel().perform(RealCards.euros(5000), over: channel)
        let gpo = try #require(await channel.received.first { $0.ins == 0xA8 })
        #expect(gpo.data[3] & 0x40 != 0, "TTQ byte 2 bit 7: CVM required")
        #expect(
            result.events.contains(
                .terminalTransactionQualifiers([
                    .cvmRequired, .onlineCryptogramRequired, .emvModeSupported, .onlinePINSupported,
                    .signatureSupported, .odaForOnlineAuthorizationsSupported, .consumerDeviceCVMSupported,
                ])))
        // The recorded card signed 10.00 EUR, so fDDA fails for 50.00 and the kernel declines before any CVM.
        #expect(result.outcome.status == .declined)
    }

    @Test func underTheCVMLimitTheTTQDoesNot() async throws {
        let channel = ScriptedChannel(try RealCards.lloydsVisa())
        _ = try await RealCards.kernel().perform(RealCards.euros(4999), over: channel)
        let gpo = try #require(await channel.received.first { $0.ins == 0xA8 })
        #expect(gpo.data[3] & 0x40 == 0)
    }

    // 6700 is what a card answers when the PDOL data has the wrong length (a PDOL mismatch).
    @Test(arguments: ["6A84", "6A81", "6700"])
    func gpoErrorsEndTheApplication(status: String) async throws {
        var rules = try RealCards.lloydsVisa()
        rules.insert(.ins(0xA8, status), at: 0)
        let result = try await RealCards.kernel().perform(RealCards.euros(1000), over: ScriptedChannel(rules))
        #expect(result.outcome.status == .endApplication)
        let word = StatusWord(UInt16([UInt8](hex: status).map { $0.reduce(0) { $0 << 8 | UInt16($1) } } ?? 0))
        #expect(result.outcome.reason == .cardStatus(command: "GET PROCESSING OPTIONS", word))
    }

    @Test func aCardThatAsksForAnotherInterfaceGetsIt() async throws {
        var rules = try RealCards.lloydsVisa()
        rules.insert(.ins(0xA8, "6984"), at: 0)
        let result = try await RealCards.kernel().perform(RealCards.euros(1000), over: ScriptedChannel(rules))
        #expect(result.outcome.status == .tryAnotherInterface)
    }
}
