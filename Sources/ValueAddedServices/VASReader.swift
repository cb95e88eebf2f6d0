public import EMV
public import Foundation
public import SmartCard

/// The reader's VAS step, run before the payment kernel in the same tap: SELECT `OSE.VAS.01`, then one GET VAS DATA
/// per merchant asked for.
///
/// ```swift
/// let outcome = try await VASReader.read(request, over: channel)
/// for entry in outcome.entries where entry.statusWord == VASStatus.success { … entry.cryptogram … }
/// ```
public enum VASReader {
    /// A merchant whose pass the reader asks for.
    public struct Merchant: Sendable, Hashable {
        /// The pass type identifier (`pass.com.example.coffee`).
        public var passTypeIdentifier: String
        /// The merchant's sign-up page, offered to customers without the pass.
        public var signupURL: URL?
        /// Offer the sign-up URL only, asking for no pass.
        public var urlOnly: Bool

        public init(passTypeIdentifier: String, signupURL: URL? = nil, urlOnly: Bool = false) {
            self.passTypeIdentifier = passTypeIdentifier
            self.signupURL = signupURL
            self.urlOnly = urlOnly
        }
    }

    /// What one tap's VAS step asks for.
    public struct Request: Sendable, Hashable {
        public var merchants: [Merchant]
        public var mode: VASMode
        /// Ask the wallet to authenticate the customer before it releases passes.
        public var requiresAuthentication: Bool

        public init(merchants: [Merchant], mode: VASMode, requiresAuthentication: Bool = false) {
            self.merchants = merchants
            self.mode = mode
            self.requiresAuthentication = requiresAuthentication
        }
    }

    /// What the step found.
    public struct Outcome: Sendable, Hashable {
        /// The wallet's SELECT answer; nil when the card in the field has no VAS application (a plain card).
        public var wallet: Wallet?
        /// One entry per merchant asked, in order; empty without a wallet.
        public var entries: [Entry]

        /// Whether a pass answered.
        public var hasPass: Bool { entries.contains { $0.statusWord == VASStatus.success } }
    }

    /// The wallet's SELECT answer.
    public struct Wallet: Sendable, Hashable {
        /// Its label (tag 50): `ApplePay` for Apple Wallet.
        public var label: String
        /// Its VAS version (9F21).
        public var version: [UInt8]
        /// What it can do in this tap (9F23).
        public var capabilities: VASWalletCapabilities
    }

    /// One GET VAS DATA's answer.
    public struct Entry: Sendable, Hashable {
        /// The merchant asked.
        public var passTypeIdentifier: String
        /// The wallet's status word (``VASStatus``).
        public var statusWord: StatusWord
        /// The encrypted pass message (9F27) when the status is success.
        public var cryptogram: [UInt8]?
    }

    /// Runs the VAS step over `channel`.
    /// - Throws: ``SmartCardError`` when the card stops answering; status words are the outcome's, never thrown.
    public static func read(_ request: Request, over channel: some CardChannel) async throws(SmartCardError)
        -> Outcome
    {
        let select = try await channel.transmit(VASProtocol.select)
        guard select.statusWord == .success, let wallet = wallet(in: select.data) else {
            return Outcome(wallet: nil, entries: [])
        }
        var entries: [Entry] = []
        for (index, merchant) in request.merchants.enumerated() {
            let capabilities = VASTerminalCapabilities(
                mode: request.mode, requiresAuthentication: request.requiresAuthentication,
                morePassesFollow: index < request.merchants.count - 1)
            let response = try await channel.transmit(getData(merchant, capabilities: capabilities))
            let cryptogram = response.statusWord == .success ? self.cryptogram(in: response.data) : nil
            entries.append(
                Entry(
                    passTypeIdentifier: merchant.passTypeIdentifier,
                    statusWord: response.statusWord == .success && cryptogram == nil
                        ? VASStatus.incorrectData : response.statusWord,
                    cryptogram: cryptogram))
        }
        return Outcome(wallet: wallet, entries: entries)
    }

    /// GET VAS DATA for `merchant`: `80 CA 01 P2` (P2 01: pass and URL, 00: URL only) with the version, the
    /// merchant's id hash, the reader's capabilities and the sign-up URL.
    public static func getData(_ merchant: Merchant, capabilities: VASTerminalCapabilities) -> CommandAPDU {
        var data = TLV.Serializer()
        // The values are short and the tags well formed: the serializer cannot fail here.
        try? data.append(tag: VASTag.readerVersion, value: VASProtocol.version)
        try? data.append(
            tag: VASTag.merchantIDHash, value: VASCryptogram.merchantIDHash(merchant.passTypeIdentifier))
        try? data.append(tag: VASTag.terminalCapabilities, value: capabilities.bytes)
        if let url = merchant.signupURL {
            try? data.append(tag: VASTag.signupURL, value: Array(url.absoluteString.utf8))
        }
        return CommandAPDU(
            unchecked: VASProtocol.getDataClass, VASProtocol.getDataInstruction, VASProtocol.getDataP1,
            merchant.urlOnly ? 0x00 : 0x01, data.bytes, 256)
    }

    /// The wallet in a SELECT answer: `6F` with a label, a version and capabilities.
    static func wallet(in data: [UInt8]) -> Wallet? {
        guard let template = try? TLV.parseOne(data, rules: .lenient), template.tag == 0x6F,
            let label = template.first(0x50).flatMap({ String(bytes: $0.value, encoding: .utf8) }),
            let version = template.first(VASTag.walletVersion)
        else { return nil }
        let capabilities =
            template.first(VASTag.walletCapabilities).flatMap { VASWalletCapabilities(bytes: $0.value) } ?? []
        return Wallet(label: label, version: Array(version.value), capabilities: capabilities)
    }

    /// The cryptogram in a GET VAS DATA answer: `70` holding 9F27.
    static func cryptogram(in data: [UInt8]) -> [UInt8]? {
        guard let template = try? TLV.parseOne(data, rules: .lenient), template.tag == 0x70,
            let cryptogram = template.first(VASTag.cryptogram), !cryptogram.value.isEmpty
        else { return nil }
        return Array(cryptogram.value)
    }
}
