import CardEmulator
import EMV
import Foundation
import ReaderKernel
import Testing

/// Nothing a card sends may crash the kernel or keep it busy: real card responses, mutated at random (bytes
/// flipped, cut, extended, status words changed), drive the state machine to an outcome every time (seeded, so every run sees the same inputs).
@Suite struct RobustnessTests {
    static func mutate(_ response: ResponseAPDU, using generator: inout SeededRandomNumberGenerator) -> ResponseAPDU {
        var bytes = response.bytes
        // Most responses pass untouched, so the transactions get deep before something goes wrong.
        switch Int.random(in: 0..<16, using: &generator) {
        case 0...10:
            return response
        case 1:
            for _ in 0..<Int.random(in: 1...4, using: &generator) where bytes.count > 2 {
                bytes[Int.random(in: 0..<(bytes.count - 2), using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
        case 2:
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator))) + [0x90, 0x00]
        case 3:
            bytes.insert(
                contentsOf: (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }, at: 0)
        case 4:
            bytes =
                Array(bytes.dropLast(2)) + [
                    UInt8.random(in: 0x61...0x6F, using: &generator), UInt8.random(in: 0...255, using: &generator),
                ]
        default:
            bytes = (0..<Int.random(in: 2...64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
        }
        return (try? ResponseAPDU(bytes: bytes)) ?? ResponseAPDU(statusWord: .success)
    }

    @Test(arguments: 0..<4)
    func mutatedRealCardsAlwaysReachAnOutcome(seed: UInt64) throws {
        let rules =
            try RealCards.lloydsVisa() + RealCards.aabMastercard(generateAC: "770E9F2701809F360200429F4B0201029000")
        let configuration = ReaderConfiguration.default(caPublicKeys: try RealCards.caKeys())
        var generator = SeededRandomNumberGenerator(seed: seed)
        var statuses: Set<Outcome.Status> = []
        for round in 0..<300 {
            var transaction = KernelTransaction(
                configuration: configuration, request: RealCards.euros([100, 1000, 6000][round % 3]),
                environment: TransactionEnvironment(
                    date: RealCards.recordedDate, timeZone: TimeZone(identifier: "UTC") ?? .current,
                    unpredictableNumber: [0x38, 0x39, 0x30, 0x31]))
            var action = transaction.start()
            var commands = 0
            while case .transmit(let command) = action {
                commands += 1
                let answer = rules.first { $0.matches(command) }?.response ?? ResponseAPDU(statusWord: .fileNotFound)
                action = transaction.receive(Self.mutate(answer, using: &generator))
            }
            #expect(commands <= 128)
            guard case .complete(let outcome) = action else { continue }
            statuses.insert(outcome.status)
            #expect(transaction.outcome == outcome)
            #expect(transaction.events.last == .outcome(outcome))
        }
        #expect(statuses.count >= 3, "the mutations reach several kinds of outcome")
    }
}
