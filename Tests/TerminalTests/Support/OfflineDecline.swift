import EMV
import SmartCard

/// A test card whose risk management declines offline: every GENERATE AC reaches it asking for an AAC (reference
/// control bits 00), whatever the reader asked for.
struct OfflineDecline: CardChannel {
    let card: any CardChannel

    func transmit(_ command: CommandAPDU) async throws(SmartCardError) -> ResponseAPDU {
        guard command.instruction == .generateAC else { return try await card.transmit(command) }
        let askingForAAC = try? CommandAPDU(
            cla: command.cla, ins: command.ins, p1: command.p1 & 0b0011_1111, p2: command.p2, data: command.data,
            ne: command.ne)
        return try await card.transmit(askingForAAC ?? command)
    }
}
