import EMV

/// A tiny applet for transport tests: INS 01 echoes its data, INS 02 counts a persistent transaction counter and
/// answers it, INS 03 answers whether it was selected since power-on, INS 04 answers Ne zero bytes; anything else is
/// 6D00.
struct CounterApplet: CardApplet, Equatable {
    /// Persistent, like an ATC: survives reset.
    var counter: UInt16 = 0
    /// Volatile, like the selected application: cleared by reset.
    var selected = false
    /// How often the card lost power.
    var resets = 0
    /// Every command the applet received, as it received it.
    var received: [CommandAPDU] = []

    mutating func respond(to command: CommandAPDU) -> ResponseAPDU {
        received.append(command)
        switch command.ins {
        case 0x01:
            return ResponseAPDU(data: command.data, statusWord: .success)
        case 0x02:
            counter &+= 1
            return ResponseAPDU(data: [UInt8(counter >> 8), UInt8(counter & 0xFF)], statusWord: .success)
        case 0x03:
            return ResponseAPDU(data: [selected ? 1 : 0], statusWord: .success)
        case 0x04:
            return ResponseAPDU(data: [UInt8](repeating: 0, count: command.ne), statusWord: .success)
        case 0xA4:
            selected = true
            return ResponseAPDU(statusWord: .success)
        default:
            return ResponseAPDU(statusWord: StatusWord(0x6D00))
        }
    }

    mutating func reset() {
        selected = false
        resets += 1
    }
}

// Test commands with fixed, valid lengths: the throwing initializer cannot fail on them.
extension CommandAPDU {
    static func echo(_ data: [UInt8]) -> CommandAPDU {
        try! CommandAPDU(cla: 0x80, ins: 0x01, p1: 0, p2: 0, data: data, ne: 256)
    }
    static let count = try! CommandAPDU(cla: 0x80, ins: 0x02, p1: 0, p2: 0, ne: 256)
    static let isSelected = try! CommandAPDU(cla: 0x80, ins: 0x03, p1: 0, p2: 0, ne: 256)
    static func zeros(_ count: Int) -> CommandAPDU {
        try! CommandAPDU(cla: 0x80, ins: 0x04, p1: 0, p2: 0, ne: count)
    }
    static let selectAny = try! CommandAPDU(cla: 0x00, ins: 0xA4, p1: 4, p2: 0, data: [0xA0, 0x00], ne: 256)
}
