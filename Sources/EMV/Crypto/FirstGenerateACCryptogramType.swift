/// The cryptogram a card returned in its first GENERATE AC, as its CVR records it in a 2-bit field
/// (byte 1 bits 6-5 of the Mastercard and EMV CCD CVRs, byte 2 bits 6-5 of the VIS CVR).
public enum FirstGenerateACCryptogramType: UInt8, Sendable, Hashable, CaseIterable {
    /// 00: AAC, declined.
    case aac = 0
    /// 01: TC, approved offline.
    case tc = 1
    /// 10: ARQC, online requested.
    case arqc = 2
    /// 11: reserved for future use.
    case reserved = 3
}
