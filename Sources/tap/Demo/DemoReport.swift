import CardEmulator
import EMV
import ReaderKernel
import SmartCard

/// What `tap demo` shows, as data: rendered as text for people and as JSON (`--json`) for scripts. Holds masked card
/// data only: the PAN as BIN and last four, response bytes with sensitive values starred.
struct DemoReport: Encodable {
    /// One command and its response, as the reader saw them.
    struct Exchange: Encodable {
        var command: String
        var name: String
        var response: String?
        var status: String?
        var error: String?
    }

    var card: String
    var kernel: String?
    var aid: String?
    var panMasked: String?
    var amount: String
    var currency: String
    var cardholderVerifiedOnPhone: Bool
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
    var paymentKeysBefore: Int
    var paymentKeysAfter: Int
    var limits: String?
    var decisions: [String]
    var apdus: [Exchange]

    /// For the text rendering, not encoded: the exchanges as sent and received, and the kernel whose tag meanings
    /// decode them.
    let exchanges: [APDUExchange]
    let printer: TLVPrettyPrinter

    private enum CodingKeys: String, CodingKey {
        case card, kernel, aid, panMasked, amount, currency, cardholderVerifiedOnPhone, outcome, reason, userInterface
        case cryptogramType, atc, arqc, arqcVerified, tamperedAmountRejected, cryptogramVersion, oda, cvm
        case paymentKeysBefore, paymentKeysAfter, limits, decisions, apdus
    }

    init(
        card: DemoCard, profile: CardProfile, amount: Amount, cardholderVerifiedOnPhone: Bool, keysBefore: Int,
        keysAfter: Int, configuration: ReaderConfiguration, result: TransactionResult, issuer: IssuerCheck?
    ) {
        let outcome = result.outcome
        let authorization = outcome.authorizationData
        let selected = result.events.lazy.compactMap { event -> Candidate? in
            if case .applicationSelected(let candidate) = event { return candidate }
            return nil
        }.last
        self.card = profile.name
        kernel = (outcome.kernel ?? selected?.kernel).map { "\($0)" }
        aid = selected?.adfName.hexString
        panMasked = authorization?.pan.masked
        self.amount = "\(amount)"
        currency = amount.currency.alphabeticCode
        self.cardholderVerifiedOnPhone = cardholderVerifiedOnPhone
        self.outcome = outcome.status.rawValue
        reason = "\(outcome.reason)"
        userInterface = outcome.userInterface.map { "\($0)" }
        cryptogramType = result.events.lazy.compactMap { event -> String? in
            if case .cryptogramReceived(let type, _) = event { return type }
            return nil
        }.last
        atc = authorization?.iccValue(.applicationTransactionCounter)?.hexString
        arqc = authorization?.iccValue(.applicationCryptogram)?.hexString
        arqcVerified = issuer?.arqcVerified
        tamperedAmountRejected = issuer?.tamperedAmountRejected
        cryptogramVersion = issuer?.cryptogramVersion
        oda = result.events.lazy.compactMap { event -> String? in
            if case .offlineDataAuthentication(let result) = event { return "\(result)" }
            return nil
        }.last ?? "not performed"
        cvm = "\(outcome.cardholderVerification)"
        paymentKeysBefore = keysBefore
        paymentKeysAfter = keysAfter
        limits = result.events.lazy.compactMap { event -> String? in
            if case .limitsChecked = event { return "\(event)" }
            return nil
        }.first
        decisions = result.events.map(\.description)
        let printer = TLVPrettyPrinter(kernel: outcome.kernel ?? selected?.kernel ?? .generic)
        apdus = result.exchanges.map { exchange in
            Exchange(
                command: Self.commandHex(exchange.command),
                name: Self.name(of: exchange.command),
                response: exchange.response.map { printer.maskedHex($0.data) },
                status: exchange.response.map { "\($0.statusWord)" },
                error: exchange.error.map { "\($0.code)" })
        }
        exchanges = result.exchanges
        self.printer = printer
    }

    /// Commands carry no card data, except VERIFY's PIN block, which is starred.
    static func commandHex(_ command: CommandAPDU) -> String {
        guard command.instruction == .verify else { return command.bytes.hexString }
        return [command.cla, command.ins, command.p1, command.p2].hexString + String(repeating: "*", count: 2 * (command.bytes.count - 4))
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
