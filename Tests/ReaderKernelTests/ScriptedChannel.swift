import EMV
import Foundation
import SmartCard

/// A card for tests that answers from a fixed script: each rule matches commands (by a predicate) and gives a
/// response; the first matching rule wins. It can fail a chosen command with a transport error, and it records the
/// commands it received.
actor ScriptedChannel: CardChannel {
    struct Rule: Sendable {
        let matches: @Sendable (CommandAPDU) -> Bool
        let response: ResponseAPDU
    }

    private var rules: [Rule]
    private(set) var received: [CommandAPDU] = []
    /// Fails the command with this index (0-based) with the error instead of answering.
    private let failure: (index: Int, error: SmartCardError)?

    init(_ rules: [Rule], failing failure: (index: Int, error: SmartCardError)? = nil) {
        self.rules = rules
        self.failure = failure
    }

    func transmit(_ command: CommandAPDU) async throws(SmartCardError) -> ResponseAPDU {
        let index = received.count
        received.append(command)
        if let failure, failure.index == index { throw failure.error }
        guard let rule = rules.first(where: { $0.matches(command) }) else {
            return ResponseAPDU(statusWord: .instructionNotSupported)
        }
        return rule.response
    }
}

extension ScriptedChannel.Rule {
    /// Answers commands with this INS (and P1 P2 when given) with `hex` (data then status word).
    static func ins(_ ins: UInt8, p1: UInt8? = nil, p2: UInt8? = nil, _ hex: String) -> Self {
        Self(
            matches: { $0.ins == ins && (p1 == nil || $0.p1 == p1) && (p2 == nil || $0.p2 == p2) },
            response: response(hex))
    }

    /// Answers SELECT of `name` (hex) with `hex`.
    static func select(_ name: String, _ hex: String) -> Self {
        let bytes = [UInt8](hex: name) ?? []
        return Self(matches: { $0.ins == 0xA4 && $0.data == bytes }, response: response(hex))
    }

    /// Answers SELECT of the PPSE with `hex`.
    static func ppse(_ hex: String) -> Self { select(Array("2PAY.SYS.DDF01".utf8).hexString, hex) }

    /// Answers READ RECORD of `record` in `sfi` with `hex`.
    static func record(sfi: UInt8, _ record: UInt8, _ hex: String) -> Self {
        ins(0xB2, p1: record, p2: sfi << 3 | 4, hex)
    }

    static func response(_ hex: String) -> ResponseAPDU {
        (try? ResponseAPDU(bytes: [UInt8](hex: hex) ?? [0x6F, 0x00])) ?? ResponseAPDU(statusWord: .noPreciseDiagnosis)
    }
}
