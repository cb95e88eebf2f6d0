public import EMV
import Foundation
public import ValueAddedServices

/// The wallet's `OSE.VAS.01` application: answers a reader's GET VAS DATA with the matching pass's message
/// encrypted to its merchant's key.
///
/// - SELECT answers the wallet's label (`ApplePay`), version 1.0, a fresh nonce and its capabilities: passes to give,
///   and payment when ``paymentReady``.
/// - GET VAS DATA answers 9000 with `70 { 9F27 cryptogram }` for the pass whose type's SHA-256 the reader names;
///   6A83 when no pass matches (or the reader's mode is payment only, or a VAS-only tap already took its one pass);
///   6984 when the pass needs the customer to authenticate and ``customerAuthenticated`` is false; 6A80 for missing
///   or malformed data objects; 6B00 for a P1 or P2 it does not know.
public struct VASApplet: CardApplet {
    /// The passes the wallet offers.
    public var passes: [VASPass]
    /// Whether a payment card is ready in the same tap (advertised in the SELECT answer).
    public var paymentReady: Bool
    /// Whether the customer authenticated on the phone, which passes with `requiresAuthentication` need.
    public var customerAuthenticated: Bool
    /// Passes given in this tap (a VAS-only tap gives one).
    public private(set) var passesGiven = 0
    /// Passes given since the applet was made, over all taps.
    public private(set) var passesServed = 0
    /// The wallet's clock (the cryptogram's timestamp) and randomness (the SELECT nonce).
    public var environment: CardEnvironment
    private var selected = false

    public init(
        passes: [VASPass], paymentReady: Bool = false, customerAuthenticated: Bool = false,
        environment: CardEnvironment = .system
    ) {
        self.passes = passes
        self.paymentReady = paymentReady
        self.customerAuthenticated = customerAuthenticated
        self.environment = environment
    }

    /// Whether `command` selects this application.
    public static func selects(_ command: CommandAPDU) -> Bool {
        command.cla & 0xFC == 0x00 && command.ins == 0xA4 && command.p1 == 0x04
            && command.data == VASProtocol.applicationName
    }

    public mutating func respond(to command: CommandAPDU) -> ResponseAPDU {
        if Self.selects(command) { return select() }
        guard selected else { return ResponseAPDU(statusWord: .conditionsOfUseNotSatisfied) }
        guard command.cla == 0x80, command.ins == 0xCA else {
            return ResponseAPDU(statusWord: .instructionNotSupported)
        }
        guard command.p1 == 0x01, command.p2 <= 0x01 else { return ResponseAPDU(statusWord: VASStatus.wrongParameters) }
        return getData(command.data, urlOnly: command.p2 == 0x00)
    }

    public mutating func reset() {
        selected = false
        passesGiven = 0
    }

    private mutating func select() -> ResponseAPDU {
        selected = true
        var capabilities: VASWalletCapabilities = [.encrypted, .canSkipVAS, .canSkipPayment]
        if !passes.isEmpty { capabilities.insert(.vas) }
        if paymentReady { capabilities.insert(.payment) }
        let answer = try? TLV.Serializer.serialize { fci in
            try fci.appendConstructed(tag: 0x6F) { template in
                try template.append(tag: 0x50, value: Array(VASProtocol.appleWalletLabel.utf8))
                try template.append(tag: VASTag.walletVersion, value: VASProtocol.version)
                try template.append(tag: VASTag.walletNonce, value: environment.randomBytes(4))
                try template.append(tag: VASTag.walletCapabilities, value: capabilities.bytes)
            }
        }
        return ResponseAPDU(data: answer ?? [], statusWord: .success)
    }

    private mutating func getData(_ data: [UInt8], urlOnly: Bool) -> ResponseAPDU {
        guard let objects = try? TLV.parse(data, rules: .lenient),
            objects.first(VASTag.readerVersion)?.value.elementsEqual(VASProtocol.version) == true,
            let merchant = objects.first(VASTag.merchantIDHash), merchant.length == 32,
            let capabilities = objects.first(VASTag.terminalCapabilities)
                .flatMap({ VASTerminalCapabilities(bytes: $0.value) })
        else { return ResponseAPDU(statusWord: VASStatus.incorrectData) }
        guard !urlOnly, capabilities.mode != .paymentOnly,
            !(capabilities.mode == .vasOnly && passesGiven > 0),
            let pass = passes.first(where: { $0.merchantIDHash.elementsEqual(merchant.value) })
        else { return ResponseAPDU(statusWord: VASStatus.dataNotFound) }
        if (pass.nfc.requiresAuthentication || capabilities.requiresAuthentication) && !customerAuthenticated {
            return ResponseAPDU(statusWord: VASStatus.userInterventionRequired)
        }
        guard
            let cryptogram = try? VASCryptogram.seal(
                pass.nfc.message, timestamp: environment.now(), passTypeIdentifier: pass.passTypeIdentifier,
                to: pass.encryptionKey),
            let answer = try? TLV.Serializer.serialize({ response in
                try response.appendConstructed(tag: 0x70) { template in
                    try template.append(tag: VASTag.cryptogram, value: cryptogram)
                }
            })
        else { return ResponseAPDU(statusWord: .executionError) }
        passesGiven += 1
        passesServed += 1
        return ResponseAPDU(data: answer, statusWord: .success)
    }
}
