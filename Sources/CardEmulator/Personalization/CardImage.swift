import EMV
import Foundation

/// What personalisation writes into the card: file contents, FCIs, data object lists, the ICC key and the values the
/// applet's logic reads. Fixed for the card's life; ``EmulatedCard`` keeps the changing state.
struct CardImage: Sendable {
    /// One application: its directory entry and its FCI.
    struct Application: Sendable {
        var aid: [UInt8]
        var label: String
        var priority: UInt8
        var kernelIdentifier: [UInt8]
        var fci: [UInt8]
    }

    /// Mag-stripe mode keys and templates' IVs, for COMPUTE CRYPTOGRAPHIC CHECKSUM.
    struct MagStripeKeys: Sendable {
        var iccKey: [UInt8]
        var ivTrack1: [UInt8]
        var ivTrack2: [UInt8]
        var udol: DataObjectList
    }

    var scheme: CardProfile.Scheme
    var applications: [Application]
    var ppseFCI: [UInt8]
    var pseFCI: [UInt8]
    var pseRecords: [[UInt8]]
    /// Record contents by ``recordKey(sfi:number:)``.
    var records: [UInt16: [UInt8]]
    var applicationInterchangeProfile: ApplicationInterchangeProfile
    var applicationFileLocator: [UInt8]
    var pdol: DataObjectList?
    var cdol1: DataObjectList?
    var cdol2: DataObjectList?
    var cryptogramVersion: CryptogramVersion
    var derivationKeyIndex: UInt8
    var track2EquivalentData: [UInt8]
    var panSequenceNumber: [UInt8]
    var issuerCountryCode: [UInt8]
    var iccPrivateKey: RSAPrivateKey?
    var cardAuthenticationRelatedData: [UInt8]?
    var cardTransactionQualifiers: CardTransactionQualifiers
    var formFactorIndicator: [UInt8]?
    var issuerActionCodeDenial: TerminalVerificationResults
    var issuerActionCodeOnline: TerminalVerificationResults
    var offlineLimit: Int
    var consumerDeviceCVM: CardProfile.ConsumerDeviceCVM
    var offlinePINDigits: [UInt8]?
    var pinTryLimit: UInt8
    var logFormat: [UInt8]?
    var magStripe: MagStripeKeys?
    var acceptsEmptyPDOLData: Bool
    var keyValidity: TimeInterval

    static func recordKey(sfi: UInt8, number: UInt8) -> UInt16 { UInt16(sfi) << 8 | UInt16(number) }

    /// Whether the card runs EMV mode (AIP byte 2 bit 8) or, for Mastercard without it, mag-stripe mode only.
    var isMagStripeOnly: Bool {
        scheme == .mastercard && !applicationInterchangeProfile.contains(.emvModeSupported)
    }
}
