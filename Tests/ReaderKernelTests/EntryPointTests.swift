import EMV
import Foundation
import ReaderKernel
import SmartCard
import Testing

/// The entry point (Book B): pre-processing, the candidate list, Select Next.
@Suite struct EntryPointTests {
    /// A PPSE directory with one entry per (AID, priority, kernel identifier).
    static func directory(_ entries: [(aid: String, priority: UInt8?, kernel: String?)]) -> String {
        let templates = entries.map { entry -> [UInt8] in
            var value = [0x4F, UInt8(entry.aid.count / 2)] + ([UInt8](hex: entry.aid) ?? [])
            if let priority = entry.priority { value += [0x87, 0x01, priority] }
            if let kernel = entry.kernel, let bytes = [UInt8](hex: kernel) {
                value += [0x9F, 0x2A, UInt8(bytes.count)] + bytes
            }
            return [0x61, UInt8(value.count)] + value
        }.flatMap { $0 }
        let bf0c = [0xBF, 0x0C, UInt8(templates.count)] + templates
        let a5 = [0xA5, UInt8(bf0c.count)] + bf0c
        let name = Array("2PAY.SYS.DDF01".utf8)
        let body = [0x84, UInt8(name.count)] + name + a5
        return ([0x6F, UInt8(body.count)] + body).hexString + "9000"
    }

    static let kernel = ReaderKernel(
        configuration: .default(caPublicKeys: RealCards.emptyKeyList),
        clock: { RealCards.recordedDate }, unpredictableNumbers: { [1, 2, 3, 4] })

    static func selectedNames(_ channel: ScriptedChannel) async -> [String] {
        await channel.received.filter { $0.ins == 0xA4 }.dropFirst().map(\.data.hexString)
    }

    @Test func overTheContactlessLimitNothingIsSent() async throws {
        let channel = ScriptedChannel([])
        let result = await Self.kernel.perform(RealCards.euros(50_000), over: channel)
        #expect(result.outcome.status == .tryAnotherInterface)
        #expect(result.outcome.reason == .amountOverContactlessLimit)
        #expect(result.outcome.userInterface?.message == .insertOrSwipeCard)
        #expect(result.exchanges.isEmpty)
        guard case .limitsChecked(_, let indicators)? = result.events.first else {
            Issue.record("no limits event")
            return
        }
        #expect(indicators.allSatisfy { $0.contactlessApplicationNotAllowed })
    }

    @Test func justUnderTheContactlessLimitIsAllowed() async throws {
        let channel = ScriptedChannel([.ppse(Self.directory([("A0000000031010", 1, nil)]))])
        let result = await Self.kernel.perform(RealCards.euros(49_999), over: channel)
        #expect(result.outcome.status != .tryAnotherInterface)
        #expect(await channel.received.count >= 2)
    }

    @Test func unknownAIDEndsTheApplication() async throws {
        let channel = ScriptedChannel([.ppse(Self.directory([("A0000000999999", 1, nil)]))])
        let result = await Self.kernel.perform(RealCards.euros(100), over: channel)
        #expect(result.outcome.status == .endApplication)
        #expect(result.outcome.reason == .noMutuallySupportedApplication)
        #expect(result.events.contains(.candidatesBuilt([])))
        #expect(await channel.received.count == 1)
    }

    @Test func missingPPSEEndsTheApplication() async throws {
        let result = await Self.kernel.perform(RealCards.euros(100), over: ScriptedChannel([.ppse("6A82")]))
        #expect(result.outcome.reason == .proximityEnvironmentUnavailable(.fileNotFound))
    }

    @Test func aKernelIdentifierThatDisagreesExcludesTheApplication() async throws {
        // A Visa AID that asks for Kernel 2: the reader runs Visa on Kernel 3 only.
        let channel = ScriptedChannel([.ppse(Self.directory([("A0000000031010", 1, "02")]))])
        let result = await Self.kernel.perform(RealCards.euros(100), over: channel)
        #expect(result.outcome.reason == .noMutuallySupportedApplication)
    }

    @Test func candidatesFollowPriority() async throws {
        let channel = ScriptedChannel([
            .ppse(Self.directory([("A0000000031010", 2, "03"), ("A0000000041010", 1, nil)]))
        ])
        let result = await Self.kernel.perform(RealCards.euros(100), over: channel)
        // Neither application answers SELECT, so both are tried in priority order, then the application ends.
        #expect(await Self.selectedNames(channel) == ["A0000000041010", "A0000000031010"])
        #expect(result.outcome.status == .endApplication)
        #expect(result.outcome.reason == .cardStatus(command: "SELECT", .instructionNotSupported))
        #expect(result.events.filter { if case .selectNext = $0 { true } else { false } }.count == 2)
    }

    @Test func preferredAIDsComeFirstOnCoBadgedCards() async throws {
        let channel = ScriptedChannel([
            .ppse(Self.directory([("A0000000031010", 2, nil), ("A0000000041010", 1, nil)]))
        ])
        var request = RealCards.euros(100)
        request.preferredAIDs = [[0xA0, 0x00, 0x00, 0x00, 0x03]]
        _ = await Self.kernel.perform(request, over: channel)
        #expect(await Self.selectedNames(channel).first == "A0000000031010")
    }

    @Test func selectNextAfterAFailedSelection() async throws {
        var rules = try RealCards.lloydsVisa()
        rules[0] = .ppse(Self.directory([("A0000000041010", 1, nil), ("A0000000031010", 2, nil)]))
        rules.append(.select("A0000000041010", "6A82"))
        let result = try await RealCards.kernel().perform(RealCards.euros(1000), over: ScriptedChannel(rules))
        #expect(result.outcome.status == .onlineRequest)
        #expect(
            result.events.contains(
                .selectNext(
                    adfName: [0xA0, 0, 0, 0, 0x04, 0x10, 0x10], reason: .cardStatus(command: "SELECT", .fileNotFound))))
    }

    @Test func gpoConditionsNotSatisfiedSelectsNext() async throws {
        var rules = try RealCards.lloydsVisa()
        rules.insert(.ins(0xA8, "6985"), at: 0)
        let result = try await RealCards.kernel().perform(RealCards.euros(1000), over: ScriptedChannel(rules))
        #expect(result.outcome.status == .endApplication)
        #expect(result.outcome.reason == .cardStatus(command: "GET PROCESSING OPTIONS", .conditionsOfUseNotSatisfied))
    }

    @Test func invalidTransactionDataNeverReachesTheCard() async throws {
        let kernel = ReaderKernel(
            configuration: Self.kernel.configuration, clock: { RealCards.recordedDate },
            unpredictableNumbers: { [1, 2] })
        let channel = ScriptedChannel([])
        let result = await kernel.perform(RealCards.euros(100), over: channel)
        #expect(result.outcome.status == .endApplication)
        #expect(await channel.received.isEmpty)
    }

    @Test func theStateMachineRunsWithoutADriver() throws {
        var transaction = KernelTransaction(
            configuration: Self.kernel.configuration, request: RealCards.euros(100),
            environment: TransactionEnvironment(
                date: RealCards.recordedDate, timeZone: TimeZone(identifier: "UTC") ?? .current,
                unpredictableNumber: [1, 2, 3, 4]))
        #expect(transaction.start() == .transmit(.selectPPSE))
        let directory = try ResponseAPDU(bytes: [UInt8](hex: Self.directory([("A0000000031010", 1, nil)])) ?? [])
        let action = transaction.receive(directory)
        let select = try CommandAPDU.select(name: [0xA0, 0, 0, 0, 0x03, 0x10, 0x10])
        #expect(action == .transmit(select))
        guard case .complete(let outcome) = transaction.receive(ResponseAPDU(statusWord: .fileNotFound)) else {
            Issue.record("expected the end")
            return
        }
        #expect(outcome.status == .endApplication)
        #expect(transaction.outcome == outcome)
    }
}
