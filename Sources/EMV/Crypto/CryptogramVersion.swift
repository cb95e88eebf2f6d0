/// A cryptogram version number (CVN): how a card scheme derives the card's keys and computes its application
/// cryptograms and ARPCs (pyemv 1.5.0 `cvn`, one class per case).
///
/// ``CardCryptograms`` applies a version to one card's keys. The table below is pyemv's, which follows the
/// schemes' specifications (VIS 1.6, M/Chip 4 and Advance, Interac):
///
/// | version | master keys | AC session key | AC data after the common tags | padding | ARPC |
/// |---|---|---|---|---|---|
/// | Visa 10 | option A | none (ICC MK) | CVR | method 1 | method 1, ICC MK |
/// | Visa 18, 22 | option B | ATC ‖ 00… | IAD (9F10) | method 2 | method 2, AC session key |
/// | Interac 133 | option A | ATC ‖ 0000 ‖ UN | IAD (9F10) | method 2 | method 1, AC session key |
/// | Mastercard 16 | option A | ATC ‖ 0000 ‖ UN | CVR | method 2 | method 1, ICC MK |
/// | Mastercard 17 | option A | ATC ‖ 0000 ‖ UN | CVR ‖ counters | method 2 | method 1, ICC MK |
/// | Mastercard 20 | option A | ATC ‖ 00… | CVR | method 2 | method 1, AC session key |
/// | Mastercard 21 | option A | ATC ‖ 00… | CVR ‖ counters | method 2 | method 1, AC session key |
public enum CryptogramVersion: Sendable, Hashable, CaseIterable {
    /// Visa CVN 10 (VIS, hex `0A`); pyemv `cvn.VisaCVN10`.
    case visa10
    /// Visa CVN 18 (VIS 1.6, hex `12`); pyemv `cvn.VisaCVN18`.
    case visa18
    /// Visa CVN 22 (VIS 1.6 with IAD format 2, hex `22`); pyemv `cvn.VisaCVN22`.
    case visa22
    /// Interac CVN 133 (hex `85`); pyemv `cvn.InteracCVN133`.
    case interac133
    /// Mastercard CVN 16 (M/Chip, hex `10`: Mastercard SKD, no counters); pyemv `cvn.MasterCardCVN16`.
    case mastercard16
    /// Mastercard CVN 17 (hex `11`: Mastercard SKD, with counters); pyemv `cvn.MasterCardCVN17`.
    case mastercard17
    /// Mastercard CVN 20 (hex `14`: EMV common session key, no counters); pyemv `cvn.MasterCardCVN20`.
    case mastercard20
    /// Mastercard CVN 21 (hex `15`: EMV common session key, with counters); pyemv `cvn.MasterCardCVN21`.
    case mastercard21

    /// Which key a cryptogram or ARPC is computed under.
    public enum SessionKeyDerivation: Sendable, Hashable {
        /// No session key: the ICC master key itself.
        case iccMasterKey
        /// EMV common session key with R = ATC ‖ 00 00 00 00 00 00 (``SessionKey/common(iccMasterKey:atc:)``).
        case common
        /// Mastercard SKD, R = ATC ‖ 00 00 ‖ UN (``SessionKey/mastercard(iccMasterKey:atc:unpredictableNumber:)``).
        case mastercard
    }

    /// The two ARPC methods of EMV 4.3 Book 2, 8.2.
    public enum ARPCMethod: Sendable, Hashable {
        /// Method 1: TDES of ARQC ⊕ response code, 8 bytes (``ARPC/method1(sessionKey:arqc:responseCode:)``).
        case method1
        /// Method 2: MAC of ARQC ‖ CSU ‖ proprietary data, 4 bytes
        /// (``ARPC/method2(sessionKey:arqc:cardStatusUpdate:proprietaryAuthenticationData:)``).
        case method2
    }

    /// What the AC data carries after the ten common tags.
    public enum TrailingData: Sendable, Hashable {
        /// The card verification results taken from the IAD.
        case cardVerificationResults
        /// The card verification results, then the counters, both taken from the IAD.
        case cardVerificationResultsAndCounters
        /// The whole issuer application data (tag 9F10).
        case issuerApplicationData
    }

    /// The CVN byte as the card writes it in its issuer application data.
    public var number: UInt8 {
        switch self {
        case .visa10: 0x0A
        case .visa18: 0x12
        case .visa22: 0x22
        case .interac133: 0x85
        case .mastercard16: 0x10
        case .mastercard17: 0x11
        case .mastercard20: 0x14
        case .mastercard21: 0x15
        }
    }

    /// How the ICC master keys are derived from the issuer master keys.
    public var masterKeyDerivation: KeyDerivation.Option {
        switch self {
        case .visa18, .visa22: .b
        default: .a
        }
    }

    /// The key of the application cryptograms.
    public var acSessionKeyDerivation: SessionKeyDerivation {
        switch self {
        case .visa10: .iccMasterKey
        case .visa18, .visa22, .mastercard20, .mastercard21: .common
        case .interac133, .mastercard16, .mastercard17: .mastercard
        }
    }

    /// The key of the ARPC.
    public var arpcSessionKeyDerivation: SessionKeyDerivation {
        switch self {
        case .mastercard16, .mastercard17: .iccMasterKey
        default: acSessionKeyDerivation
        }
    }

    /// The ARPC method.
    public var arpcMethod: ARPCMethod {
        switch self {
        case .visa18, .visa22: .method2
        default: .method1
        }
    }

    /// The padding of the AC data: Visa's zeros for CVN 10, EMV's 80 00… for the others.
    public var padding: ApplicationCryptogram.Padding {
        self == .visa10 ? .visa : .emv
    }

    /// What follows the ten common tags in the AC data.
    public var trailingData: TrailingData {
        switch self {
        case .visa10, .mastercard16, .mastercard20: .cardVerificationResults
        case .mastercard17, .mastercard21: .cardVerificationResultsAndCounters
        case .visa18, .visa22, .interac133: .issuerApplicationData
        }
    }
}
