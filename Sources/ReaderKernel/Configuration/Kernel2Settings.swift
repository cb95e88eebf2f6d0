import EMV

/// Kernel 2 (Mastercard) settings (EMV Contactless Book C-2, annex A: the DF81xx configuration data objects).
public struct Kernel2Settings: Sendable, Hashable, Codable {
    /// Kernel Configuration (DF811B): bit 8 mag-stripe mode not supported, bit 7 EMV mode not supported, bit 6 on
    /// device cardholder verification supported.
    public var kernelConfiguration: UInt8
    /// CVM Capability – CVM Required (DF8118): terminal capabilities byte 2 at or over the CVM required limit.
    public var cvmCapabilityCVMRequired: UInt8
    /// CVM Capability – No CVM Required (DF8119): terminal capabilities byte 2 under the CVM required limit.
    public var cvmCapabilityNoCVMRequired: UInt8
    /// Mag-stripe CVM Capability – CVM Required (DF811E), bits 8-5 a CVM code (1 online PIN, 2 signature).
    public var magStripeCVMCapabilityCVMRequired: UInt8
    /// Mag-stripe CVM Capability – No CVM Required (DF812C).
    public var magStripeCVMCapabilityNoCVMRequired: UInt8
    /// Terminal Action Code – Default (DF8120), 5 bytes.
    public var terminalActionCodeDefault: [UInt8]
    /// Terminal Action Code – Denial (DF8121), 5 bytes.
    public var terminalActionCodeDenial: [UInt8]
    /// Terminal Action Code – Online (DF8122), 5 bytes.
    public var terminalActionCodeOnline: [UInt8]

    /// Creates settings.
    public init(
        kernelConfiguration: UInt8, cvmCapabilityCVMRequired: UInt8, cvmCapabilityNoCVMRequired: UInt8,
        magStripeCVMCapabilityCVMRequired: UInt8, magStripeCVMCapabilityNoCVMRequired: UInt8,
        terminalActionCodeDefault: [UInt8], terminalActionCodeDenial: [UInt8], terminalActionCodeOnline: [UInt8]
    ) {
        self.kernelConfiguration = kernelConfiguration
        self.cvmCapabilityCVMRequired = cvmCapabilityCVMRequired
        self.cvmCapabilityNoCVMRequired = cvmCapabilityNoCVMRequired
        self.magStripeCVMCapabilityCVMRequired = magStripeCVMCapabilityCVMRequired
        self.magStripeCVMCapabilityNoCVMRequired = magStripeCVMCapabilityNoCVMRequired
        self.terminalActionCodeDefault = terminalActionCodeDefault
        self.terminalActionCodeDenial = terminalActionCodeDenial
        self.terminalActionCodeOnline = terminalActionCodeOnline
    }

    /// Whether mag-stripe mode is supported (DF811B bit 8 clear).
    public var supportsMagStripeMode: Bool { kernelConfiguration & 0x80 == 0 }
    /// Whether EMV mode is supported (DF811B bit 7 clear).
    public var supportsEMVMode: Bool { kernelConfiguration & 0x40 == 0 }
    /// Whether on device cardholder verification (CDCVM) is supported (DF811B bit 6).
    public var supportsOnDeviceCardholderVerification: Bool { kernelConfiguration & 0x20 != 0 }

    /// A phone reader: EMV and mag-stripe mode, on device cardholder verification, online PIN and signature over
    /// the CVM limit, no CVM under it, and the action codes Mastercard recommends for online-capable terminals.
    public static let phoneReader = Kernel2Settings(
        kernelConfiguration: 0x20, cvmCapabilityCVMRequired: 0x60, cvmCapabilityNoCVMRequired: 0x08,
        magStripeCVMCapabilityCVMRequired: 0x10, magStripeCVMCapabilityNoCVMRequired: 0x00,
        terminalActionCodeDefault: [0x84, 0x00, 0x00, 0x00, 0x0C],
        terminalActionCodeDenial: [0x00, 0x00, 0x00, 0x00, 0x00],
        terminalActionCodeOnline: [0x84, 0x00, 0x00, 0x80, 0x0C])

    private enum CodingKeys: String, CodingKey {
        case kernelConfiguration, cvmCapabilityCVMRequired, cvmCapabilityNoCVMRequired
        case magStripeCVMCapabilityCVMRequired, magStripeCVMCapabilityNoCVMRequired
        case terminalActionCodeDefault, terminalActionCodeDenial, terminalActionCodeOnline
    }

    /// Decodes every byte value as hex text, e.g. `"kernelConfiguration": "20"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func byte(_ key: CodingKeys) throws -> UInt8 {
            let bytes = try container.decodeHex(key)
            guard bytes.count == 1 else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "one byte")
            }
            return bytes[0]
        }
        func actionCode(_ key: CodingKeys) throws -> [UInt8] {
            let bytes = try container.decodeHex(key)
            guard bytes.count == 5 else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "five bytes")
            }
            return bytes
        }
        kernelConfiguration = try byte(.kernelConfiguration)
        cvmCapabilityCVMRequired = try byte(.cvmCapabilityCVMRequired)
        cvmCapabilityNoCVMRequired = try byte(.cvmCapabilityNoCVMRequired)
        magStripeCVMCapabilityCVMRequired = try byte(.magStripeCVMCapabilityCVMRequired)
        magStripeCVMCapabilityNoCVMRequired = try byte(.magStripeCVMCapabilityNoCVMRequired)
        terminalActionCodeDefault = try actionCode(.terminalActionCodeDefault)
        terminalActionCodeDenial = try actionCode(.terminalActionCodeDenial)
        terminalActionCodeOnline = try actionCode(.terminalActionCodeOnline)
    }

    /// Encodes every byte value as hex text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeHex([kernelConfiguration], forKey: .kernelConfiguration)
        try container.encodeHex([cvmCapabilityCVMRequired], forKey: .cvmCapabilityCVMRequired)
        try container.encodeHex([cvmCapabilityNoCVMRequired], forKey: .cvmCapabilityNoCVMRequired)
        try container.encodeHex([magStripeCVMCapabilityCVMRequired], forKey: .magStripeCVMCapabilityCVMRequired)
        try container.encodeHex([magStripeCVMCapabilityNoCVMRequired], forKey: .magStripeCVMCapabilityNoCVMRequired)
        try container.encodeHex(terminalActionCodeDefault, forKey: .terminalActionCodeDefault)
        try container.encodeHex(terminalActionCodeDenial, forKey: .terminalActionCodeDenial)
        try container.encodeHex(terminalActionCodeOnline, forKey: .terminalActionCodeOnline)
    }
}
