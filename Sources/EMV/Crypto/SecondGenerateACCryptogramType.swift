/// The cryptogram a card returned in its second GENERATE AC, as its CVR records it in a 2-bit field
/// (byte 1 bits 8-7 of the Mastercard and EMV CCD CVRs, byte 2 bits 8-7 of the VIS CVR).
public enum SecondGenerateACCryptogramType: UInt8, Sendable, Hashable, CaseIterable {
    /// 00: AAC, declined.
    case aac = 0
    /// 01: TC, approved.
    case tc = 1
    /// 10: no second GENERATE AC was requested (yet): the value a card reports in its ARQC.
    case notRequested = 2
    /// 11: reserved for future use.
    case reserved = 3
}
