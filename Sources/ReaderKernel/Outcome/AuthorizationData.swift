public import EMV

/// The card data an online authorisation needs, and nothing more: the ICC data for ISO 8583 field 55, the PAN,
/// PAN sequence number, expiry and track 2 equivalent data.
///
/// Never shows itself whole: `description`, `debugDescription` and `dump` give the masked PAN (BIN and last four)
/// and sizes only.
public struct AuthorizationData: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// How the card was read.
    public enum Mode: String, Sendable, Hashable {
        /// EMV mode: a cryptogram in ``AuthorizationData/iccData``.
        case emv
        /// Kernel 2 mag-stripe mode: a dynamic CVC3 in the track data, no field 55.
        case magStripe
    }

    /// How the card was read.
    public let mode: Mode
    /// The ICC system related data for field 55: primitive TLVs (9F26, 9F27, 9F10, 9F37, 9F36, 95, 9A, 9C, 9F02,
    /// 9F03, 5F2A, 82, 84, 9F1A, 9F33, 9F34, 9F35, 9F09, 9F6E, ...); empty in mag-stripe mode.
    public let iccData: [UInt8]
    /// The Application PAN.
    public let pan: PAN
    /// The PAN Sequence Number (5F34), when the card has one.
    public let panSequenceNumber: UInt8?
    /// The application's expiry month.
    public let expiry: ExpiryDate?
    /// Track 2 equivalent data (57), or in mag-stripe mode the dynamic track 2 built with the CVC3.
    public let track2: Track2EquivalentData?

    /// Creates authorisation data.
    public init(
        mode: Mode, iccData: [UInt8], pan: PAN, panSequenceNumber: UInt8?, expiry: ExpiryDate?,
        track2: Track2EquivalentData?
    ) {
        self.mode = mode
        self.iccData = iccData
        self.pan = pan
        self.panSequenceNumber = panSequenceNumber
        self.expiry = expiry
        self.track2 = track2
    }

    /// The field 55 data objects, parsed.
    public func iccDataObjects() throws -> TLVNodeCollection { try TLV.parse(iccData) }

    /// The value of one field 55 data object; nil when absent.
    public func iccValue(_ tag: Tag) -> [UInt8]? {
        (try? TLV.parse(iccData))?.first(tag).map { Array($0.value) }
    }

    /// `AuthorizationData(emv, PAN 476173******0119, PSN 01, 25 ICC data objects)`.
    public var description: String {
        let count = (try? TLV.parse(iccData))?.count ?? 0
        let psn = panSequenceNumber.map { " PSN \([$0].hexString)," } ?? ""
        return "AuthorizationData(\(mode.rawValue), PAN \(pan.masked),\(psn) \(count) ICC data objects)"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Reflection shows the masked PAN and sizes only.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["mode": mode.rawValue, "pan": pan.masked, "iccDataLength": iccData.count],
            displayStyle: .struct)
    }
}
