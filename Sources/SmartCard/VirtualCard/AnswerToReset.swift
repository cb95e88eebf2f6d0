/// The parts of an answer to reset (ISO/IEC 7816-3, 8.2) that a reader reports about a card.
public enum AnswerToReset {
    /// The historical bytes of `atr`: the K bytes after the interface bytes, K being T0's low nibble. Empty when the
    /// ATR has none or ends before them.
    public static func historicalBytes(of atr: [UInt8]) -> [UInt8] {
        guard atr.count >= 2 else { return [] }
        let count = Int(atr[1] & 0x0F)
        // T0's high nibble, then each TDi's, says which of TA, TB, TC and TD(i+1) follow.
        var indicator = atr[1] >> 4
        var position = 2
        while true {
            position += (0..<3).filter { indicator & (1 << $0) != 0 }.count
            guard indicator & 0x08 != 0 else { break }
            guard position < atr.count else { return [] }
            indicator = atr[position] >> 4
            position += 1
        }
        guard position + count <= atr.count else { return [] }
        return Array(atr[position..<(position + count)])
    }
}
