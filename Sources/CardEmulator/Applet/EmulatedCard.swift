public import EMV
import Foundation

/// The payment card applet a phone wallet runs: a personalised Visa qVSDC or Mastercard M/Chip application that
/// answers command APDUs as a real contactless card does.
///
/// A value: the ATC, remaining limited-use keys, PIN try counter and cardholder verification state live in it, and
/// ``respond(to:)`` is a pure function of the value, the command and the injected ``CardEnvironment``. Make one with
/// ``CardProfile/personalize(on:environment:)``.
///
/// ```swift
/// var card = try CardProfile.visaTest.personalize()
/// card.authenticateCardholder()             // the wallet verified the user (CDCVM)
/// let fci = card.respond(to: .selectPPSE)
/// ```
///
/// Errors are status words (``CardStatus``); nothing traps on any command. Description and mirror never show card
/// data or keys.
public struct EmulatedCard: CardApplet, CustomStringConvertible, CustomReflectable {
    /// What is selected: nothing, a directory (PPSE or PSE) or an application of the image.
    enum Selection: Sendable, Equatable {
        case none
        case ppse
        case pse
        case application(Int)
    }

    /// Where the transaction on the selected application is.
    enum Phase: Sendable, Equatable {
        /// Selected; GET PROCESSING OPTIONS not yet received.
        case selected
        /// GPO answered; waiting for GENERATE AC (EMV mode) or COMPUTE CRYPTOGRAPHIC CHECKSUM (mag-stripe mode).
        case processing
        /// First GENERATE AC answered with an ARQC; a second may follow.
        case awaitingSecondGenerateAC
        /// Cryptogram returned; nothing more in this transaction.
        case completed
    }

    /// The transaction on the selected application.
    struct Transaction: Sendable {
        var phase: Phase = .selected
        /// The PDOL data the terminal sent in GPO (empty for none or lenient `83 00`).
        var pdolData: [UInt8] = []
        /// CDOL1 data of the first GENERATE AC, which a second one's CDA hash covers.
        var cdol1Data: [UInt8] = []
        /// The key (and ATC) of this transaction, once taken.
        var key: LimitedUseKey?
        /// The offline PIN was verified in this transaction (VERIFY).
        var offlinePINVerified = false
        /// The offline PIN was presented wrong in this transaction.
        var offlinePINFailed = false
    }

    var image: CardImage
    /// The clock and randomness the card uses.
    public var environment: CardEnvironment
    /// Limited-use keys not yet used, in ATC order.
    var keys: [LimitedUseKey]
    /// The ATC of the last transaction; nil before the first.
    public internal(set) var lastATC: UInt16?
    /// The ATC of the last transaction the issuer approved online (tag 9F13), 0 before any.
    public internal(set) var lastOnlineATC: UInt16 = 0
    /// Offline PIN tries left (tag 9F17).
    public internal(set) var pinTriesRemaining: UInt8
    /// Whether the wallet has authenticated the cardholder for the next transaction (CDCVM).
    public internal(set) var isCardholderVerified = false
    /// Mastercard: the wallet's data for the issuer, carried in the IAD of every cryptogram from byte 19 on; set
    /// with ``setWalletTransactionData(_:)``.
    public internal(set) var walletTransactionData: [UInt8] = []
    var selection: Selection = .none
    var transaction = Transaction()

    init(image: CardImage, keys: [LimitedUseKey], environment: CardEnvironment) {
        self.image = image
        self.keys = keys.sorted { $0.atc < $1.atc }
        self.environment = environment
        self.pinTriesRemaining = image.pinTryLimit
    }

    // MARK: - CardApplet

    /// Answers one command; see the module documentation for the commands and status words.
    public mutating func respond(to command: CommandAPDU) -> ResponseAPDU {
        guard command.cla == 0x00 || command.cla == 0x80 else { return Self.status(CardStatus.classNotSupported) }
        // ISO/IEC 7816-4 interindustry commands take CLA 00, EMV's proprietary ones CLA 80.
        let expectedClass: UInt8
        switch command.instruction {
        case .select, .readRecord, .verify, .internalAuthenticate: expectedClass = 0x00
        case .getProcessingOptions, .generateAC, .computeCryptographicChecksum, .getData: expectedClass = 0x80
        default: return Self.status(CardStatus.instructionNotSupported)
        }
        guard command.cla == expectedClass else { return Self.status(CardStatus.classNotSupported) }
        switch command.instruction {
        case .select: return select(command)
        case .readRecord: return readRecord(command)
        case .verify: return verify(command)
        case .getProcessingOptions: return getProcessingOptions(command)
        case .generateAC: return generateAC(command)
        case .computeCryptographicChecksum: return computeCryptographicChecksum(command)
        case .internalAuthenticate: return internalAuthenticate(command)
        default: return getData(command)
        }
    }

    /// Power-on state: nothing selected, no transaction. The ATC, keys, PIN try counter and the wallet's cardholder
    /// verification survive (the phone, not the field, owns the latter).
    public mutating func reset() {
        selection = .none
        transaction = Transaction()
    }

    // MARK: - Wallet hooks

    /// Whether GET PROCESSING OPTIONS with an empty `83 00` is accepted although the card has a PDOL: the lenient
    /// mode contact tools (emvtool) need; starts as the profile's ``CardProfile/acceptsEmptyPDOLData``.
    public var acceptsEmptyPDOLData: Bool {
        get { image.acceptsEmptyPDOLData }
        set { image.acceptsEmptyPDOLData = newValue }
    }

    /// The card's behaviour family.
    public var scheme: CardProfile.Scheme { image.scheme }

    /// The PAN as a wallet may show it: BIN and last four, the rest masked.
    public var maskedPAN: String { image.maskedPAN }

    /// The wallet verified the cardholder on the phone (CDCVM); the next transaction that needs a CVM consumes it.
    public mutating func authenticateCardholder() {
        isCardholderVerified = true
    }

    /// Withdraws a cardholder verification not yet consumed (the wallet's authentication timed out).
    public mutating func clearCardholderVerification() {
        isCardholderVerified = false
    }

    /// How many limited-use keys remain usable now: not used and not expired.
    public var remainingKeyCount: Int {
        let now = environment.now()
        return keys.filter { key in (lastATC.map { key.atc > $0 } ?? true) && key.validUntil >= now }.count
    }

    /// The ATC the next transaction will use, nil when no usable key is left.
    public var nextATC: UInt16? {
        var copy = self
        return copy.takeKey(consume: false)?.atc
    }

    /// Adds keys from the issuer (replenishment); see ``CardProfile/limitedUseKeys(atcs:validUntil:)``.
    ///
    /// - Throws: ``CardEmulatorError/staleKeys`` when a key's ATC is not above every ATC the card has used or holds,
    ///   so an ATC can never repeat; nothing is added then.
    public mutating func addKeys(_ newKeys: [LimitedUseKey]) throws(CardEmulatorError) {
        let highest = max(lastATC ?? 0, keys.last?.atc ?? 0)
        let sorted = newKeys.sorted { $0.atc < $1.atc }
        let fresh = zip(sorted, sorted.dropFirst()).allSatisfy { $0.atc < $1.atc }
        guard fresh, sorted.allSatisfy({ $0.atc > highest }) else {
            throw CardEmulatorError(.staleKeys, "replenishment keys must have new, distinct ATCs above \(highest)")
        }
        keys += sorted
    }

    // MARK: - Keys

    /// The next usable key: the lowest ATC above the last one used that has not expired; expired and passed keys
    /// are dropped. With `consume`, the key leaves the card and its ATC becomes the last ATC.
    mutating func takeKey(consume: Bool) -> LimitedUseKey? {
        let now = environment.now()
        keys.removeAll { key in (lastATC.map { key.atc <= $0 } ?? false) || key.validUntil < now }
        guard let key = keys.first else { return nil }
        if consume {
            keys.removeFirst()
            lastATC = key.atc
        }
        return key
    }

    /// The CVM the wallet performed is used up by the transaction that relied on it.
    mutating func consumeCardholderVerification() {
        isCardholderVerified = false
    }

    // MARK: - Responses

    static func status(_ word: StatusWord) -> ResponseAPDU { ResponseAPDU(statusWord: word) }

    static func success(_ data: [UInt8]) -> ResponseAPDU { ResponseAPDU(data: data, statusWord: .success) }

    /// Serializes a response; a failure (a value over 65535 bytes, impossible for this card's data) answers 6F00.
    static func encode(_ body: (inout TLV.Serializer) throws -> Void) -> ResponseAPDU {
        guard let data = try? TLV.Serializer.serialize(body) else { return status(.noPreciseDiagnosis) }
        return success(data)
    }

    /// Scheme, ATC and remaining keys; never the PAN or keys.
    public var description: String {
        "EmulatedCard(\(image.scheme), last ATC \(lastATC.map(String.init) ?? "none"), \(keys.count) keys)"
    }

    /// The same fields as ``description``.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "scheme": image.scheme, "lastATC": lastATC as Any, "keyCount": keys.count,
                "isCardholderVerified": isCardholderVerified,
            ],
            displayStyle: .struct)
    }
}
