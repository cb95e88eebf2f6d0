import EMV
import ReaderKernel
import SmartCard

/// What `tap demo` and `tap read` show about one purchase, as data: rendered as text for people and as JSON
/// (`--json`) for scripts. Holds masked card data only: the PAN as BIN and last four, response bytes with sensitive
/// values starred, and field 55 without PAN or track 2.
struct TransactionReport: Encodable {
    /// One command and its response, as the reader saw them.
    struct Exchange: Encodable {
        var command: String
        var name: String
        var response: String?
        var status: String?
        /// The transport error's code, e.g. `cardRemoved`.
        var error: String?
        /// What the transport said, naming the command (never its data).
        var errorMessage: String?
    }

    /// Where the card was: the in-process loopback or a PC/SC reader.
    enum Setting {
        case loopback
        case reader(name: String, atr: [UInt8], transport: String)
    }

    var card: String
    var reader: String?
    var atr: String?
    var kernel: String?
    var aid: String?
    var panMasked: String?
    var amount: String
    var currency: String
    var cardholderVerifiedOnPhone: Bool?
    var outcome: String
    var reason: String
    var userInterface: String?
    var cryptogramType: String?
    var atc: String?
    var arqc: String?
    var arqcVerified: Bool?
    var tamperedAmountRejected: Bool?
    var cryptogramVersion: String?
    var oda: String
    var cvm: String
    var paymentKeysBefore: Int?
    var paymentKeysAfter: Int?
    var limits: String?
    var iccData: String?
    var decisions: [String]
    var apdus: [Exchange]
    /// What the gateway answered (`tap demo`): nil when the read did not go online or no gateway was asked.
    var gateway: GatewayAuthorization?

    /// For the text rendering, not encoded: where the card was, the exchanges as sent and received, and the kernel
    /// whose tag meanings decode them.
    let setting: Setting
    let exchanges: [APDUExchange]
    let printer: TLVPrettyPrinter

    /// Field 55 objects that never leave the reader in a report: PAN, track 2 and track 1 equivalents, cardholder
    /// name, expiry (the kernel does not put them in field 55; this is a second lock).
    static let withheldTags: Set<EMV.Tag> = [
        .applicationPAN, .track2EquivalentData, .cardholderName, .applicationExpirationDate, 0x56, 0x9F6B,
    ]

    private enum CodingKeys: String, CodingKey {
        case card, reader, atr, kernel, aid, panMasked, amount, currency, cardholderVerifiedOnPhone, outcome, reason
        case userInterface, cryptogramType, atc, arqc, arqcVerified, tamperedAmountRejected, cryptogramVersion, oda
        case cvm, paymentKeysBefore, paymentKeysAfter, limits, iccData, decisions, apdus, gateway
    }

    /// The same keys whichever command wrote the report: what is unknown (a reader cannot count the phone's
    /// payment keys) is `null`, not missing, so scripts read `tap demo --json` and `tap read --json` alike.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(card, forKey: .card)
        try container.encode(reader, forKey: .reader)
        try container.encode(atr, forKey: .atr)
        try container.encode(kernel, forKey: .kernel)
        try container.encode(aid, forKey: .aid)
        try container.encode(panMasked, forKey: .panMasked)
        try container.encode(amount, forKey: .amount)
        try container.encode(currency, forKey: .currency)
        try container.encode(cardholderVerifiedOnPhone, forKey: .cardholderVerifiedOnPhone)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(reason, forKey: .reason)
        try container.encode(userInterface, forKey: .userInterface)
        try container.encode(cryptogramType, forKey: .cryptogramType)
        try container.encode(atc, forKey: .atc)
        try container.encode(arqc, forKey: .arqc)
        try container.encode(arqcVerified, forKey: .arqcVerified)
        try container.encode(tamperedAmountRejected, forKey: .tamperedAmountRejected)
        try container.encode(cryptogramVersion, forKey: .cryptogramVersion)
        try container.encode(oda, forKey: .oda)
        try container.encode(cvm, forKey: .cvm)
        try container.encode(paymentKeysBefore, forKey: .paymentKeysBefore)
        try container.encode(paymentKeysAfter, forKey: .paymentKeysAfter)
        try container.encode(limits, forKey: .limits)
        try container.encode(iccData, forKey: .iccData)
        try container.encode(decisions, forKey: .decisions)
        try container.encode(apdus, forKey: .apdus)
        try container.encode(gateway, forKey: .gateway)
    }

    init(
        card: String, setting: Setting, amount: Amount, cardholderVerifiedOnPhone: Bool?,
        paymentKeys: (before: Int, after: Int)?, result: TransactionResult, issuer: IssuerCheck?
    ) {
        let outcome = result.outcome
        let authorization = outcome.authorizationData
        let selected = result.events.lazy.compactMap { event -> Candidate? in
            if case .applicationSelected(let candidate) = event { return candidate }
            return nil
        }.last
        self.card = card
        self.setting = setting
        if case .reader(let name, let atr, _) = setting {
            reader = name
            self.atr = atr.hexString
        }
        kernel = (outcome.kernel ?? selected?.kernel).map { "\($0)" }
        aid = selected?.adfName.hexString
        panMasked = authorization?.pan.masked
        self.amount = "\(amount)"
        currency = amount.currency.alphabeticCode
        self.cardholderVerifiedOnPhone = cardholderVerifiedOnPhone
        self.outcome = outcome.status.rawValue
        reason = "\(outcome.reason)"
        userInterface = outcome.userInterface.map { "\($0)" }
        cryptogramType =
            result.events.lazy.compactMap { event -> String? in
                if case .cryptogramReceived(let type, _) = event { return type }
                return nil
            }.last
        atc = authorization?.iccValue(.applicationTransactionCounter)?.hexString
        arqc = authorization?.iccValue(.applicationCryptogram)?.hexString
        arqcVerified = issuer?.arqcVerified
        tamperedAmountRejected = issuer?.tamperedAmountRejected
        cryptogramVersion = issuer?.cryptogramVersion
        oda =
            result.events.lazy.compactMap { event -> String? in
                if case .offlineDataAuthentication(let result) = event { return "\(result)" }
                return nil
            }.last ?? "not performed"
        cvm = "\(outcome.cardholderVerification)"
        paymentKeysBefore = paymentKeys?.before
        paymentKeysAfter = paymentKeys?.after
        limits =
            result.events.lazy.compactMap { event -> String? in
                if case .limitsChecked = event { return "\(event)" }
                return nil
            }.first
        iccData = authorization.flatMap { Self.field55($0) }
        decisions = result.events.map(\.description)
        let printer = TLVPrettyPrinter(kernel: outcome.kernel ?? selected?.kernel ?? .generic)
        apdus = result.exchanges.map { exchange in
            Exchange(
                command: Self.commandHex(exchange.command),
                name: Self.name(of: exchange.command),
                response: exchange.response.map { printer.maskedHex($0.data) },
                status: exchange.response.map { "\($0.statusWord)" },
                error: exchange.error.map { "\($0.code)" },
                errorMessage: exchange.error?.message)
        }
        exchanges = result.exchanges
        self.printer = printer
    }

    /// Field 55 in hex without the withheld objects; nil in mag-stripe mode (no field 55).
    static func field55(_ authorization: CardAuthorizationData) -> String? {
        guard authorization.mode == .emv, let nodes = try? authorization.iccDataObjects() else { return nil }
        var serializer = TLV.Serializer()
        for node in nodes where !withheldTags.contains(node.tag) {
            guard (try? serializer.append(node)) != nil else { return nil }
        }
        return serializer.bytes.hexString
    }

    /// Commands carry no card data, except VERIFY's PIN block, which is starred.
    static func commandHex(_ command: CommandAPDU) -> String {
        guard command.instruction == .verify else { return command.bytes.hexString }
        return [command.cla, command.ins, command.p1, command.p2].hexString
            + String(repeating: "*", count: 2 * (command.bytes.count - 4))
    }

    /// `SELECT 2PAY.SYS.DDF01`, `SELECT A0000000031010`, `READ RECORD 1 SFI 2`, `GET PROCESSING OPTIONS`.
    static func name(of command: CommandAPDU) -> String {
        switch command.instruction {
        case .select:
            let printable = command.data.allSatisfy { (0x20...0x7E).contains($0) }
            return "SELECT " + (printable ? String(decoding: command.data, as: UTF8.self) : command.data.hexString)
        case .readRecord: return "READ RECORD \(command.p1) SFI \(command.p2 >> 3)"
        case .getData: return "GET DATA \([command.p1, command.p2].hexString)"
        default: return command.instruction.description
        }
    }
}
