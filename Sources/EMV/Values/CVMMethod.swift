/// A cardholder verification method: the CVM code in bits 6-1 of a CV rule's first byte (EMV 4.4 Book 3,
/// annex C3, table 43).
public struct CVMMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The six-bit code, 0x00...0x3F.
    public let rawValue: UInt8

    /// Creates a method from its code; bits 8-7 are dropped.
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x3F }

    /// 000000: fail CVM processing.
    public static let failCVMProcessing = CVMMethod(rawValue: 0x00)
    /// 000001: plaintext PIN verification performed by ICC.
    public static let plaintextPINByICC = CVMMethod(rawValue: 0x01)
    /// 000010: enciphered PIN verified online.
    public static let encipheredPINOnline = CVMMethod(rawValue: 0x02)
    /// 000011: plaintext PIN verification performed by ICC and signature (paper).
    public static let plaintextPINByICCAndSignature = CVMMethod(rawValue: 0x03)
    /// 000100: enciphered PIN verification performed by ICC.
    public static let encipheredPINByICC = CVMMethod(rawValue: 0x04)
    /// 000101: enciphered PIN verification performed by ICC and signature (paper).
    public static let encipheredPINByICCAndSignature = CVMMethod(rawValue: 0x05)
    /// 011110: signature (paper).
    public static let signature = CVMMethod(rawValue: 0x1E)
    /// 011111: no CVM required.
    public static let noCVMRequired = CVMMethod(rawValue: 0x1F)
    /// 111111: in CVM Results (9F34), no CVM was performed; not a valid rule in a CVM list.
    public static let notPerformed = CVMMethod(rawValue: 0x3F)

    private static let biometricNames = ["Facial", "Finger", "Palm", "Iris", "Voice"]

    /// The name from the specification; ranges give their category.
    public var name: String {
        switch rawValue {
        case 0x00: "Fail CVM processing"
        case 0x01: "Plaintext PIN verification performed by ICC"
        case 0x02: "Enciphered PIN verified online"
        case 0x03: "Plaintext PIN verification performed by ICC and signature (paper)"
        case 0x04: "Enciphered PIN verification performed by ICC"
        case 0x05: "Enciphered PIN verification performed by ICC and signature (paper)"
        case 0x06...0x0F:
            // EMV 4.4 biometrics: pairs of offline (by ICC) and online, in the order facial, finger, palm, iris,
            // voice.
            "\(Self.biometricNames[Int(rawValue - 0x06) / 2]) biometric verified "
                + (rawValue % 2 == 0 ? "offline (by ICC)" : "online")
        case 0x1E: "Signature (paper)"
        case 0x1F: "No CVM required"
        case 0x20...0x2F: "Reserved for use by individual payment systems"
        case 0x30...0x3E: "Reserved for use by the issuer"
        case 0x3F: "No CVM performed"
        default: "Reserved for future use"
        }
    }

    /// The name and the code in hex.
    public var description: String { "\(name) (\([rawValue].hexString))" }
}
