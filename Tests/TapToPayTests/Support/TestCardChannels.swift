import EMV
import SmartCard

/// A card whose first GENERATE AC is asked for an AAC whatever the reader asked: the card declines offline, as a
/// card whose issuer rules deny the transaction does.
struct DecliningCard: CardChannel {
    let base: any CardChannel

    func transmit(_ command: CommandAPDU) async throws(SmartCardError) -> ResponseAPDU {
        guard command.instruction == .generateAC,
            let declined = try? CommandAPDU(
                cla: command.cla, ins: command.ins, p1: command.p1 & 0x3F, p2: command.p2, data: command.data,
                ne: command.ne)
        else {
            return try await base.transmit(command)
        }
        return try await base.transmit(declined)
    }
}

/// A contactless card with no payment application: every command is answered "file not found" (6A82), as a
/// transit or access card answers SELECT PPSE.
struct CardWithoutPayment: CardApplet {
    func respond(to command: CommandAPDU) -> ResponseAPDU { ResponseAPDU(statusWord: StatusWord(0x6A82)) }
    mutating func reset() {}
}
