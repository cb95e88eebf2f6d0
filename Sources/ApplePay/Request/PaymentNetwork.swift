/// A payment network, as PassKit's `PKPaymentNetwork`: an extensible string whose raw values are Apple's (the
/// strings a token's `paymentMethod.network` carries, such as `Visa`, `MasterCard`, `AmEx`).
///
/// The raw values of the networks PassKit has had since iOS 8–10.3 (`AmEx`, `MasterCard`, `Visa`, `Discover`,
/// `ChinaUnionPay`, `Interac`, `PrivateLabel`, `JCB`, `Suica`, `iD`, `QUICPay`, `CarteBancaire`) are the strings
/// PassKit's constants hold; Apple does not document the later ones, which follow its spelling of the brand (and
/// decoding ignores case, so `Mada` and `mada` read the same).
///
/// ``allCases`` lists every network PassKit defines; ``PaymentRequest/validate(_:)`` rejects any other. JSON holds
/// the raw value; decoding also accepts a known network in another case (`visa`, `amex`), as Apple Pay on the Web
/// spells them, and maps it to PassKit's spelling.
public struct PaymentNetwork: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Apple's string for the network.
    public let rawValue: String

    /// A network from its raw value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// American Express.
    public static let amex = PaymentNetwork(rawValue: "AmEx")
    /// Bancomat (deprecated by Apple in favour of ``pagoBancomat``).
    public static let bancomat = PaymentNetwork(rawValue: "Bancomat")
    /// Bancontact.
    public static let bancontact = PaymentNetwork(rawValue: "Bancontact")
    /// BankAxept.
    public static let bankAxept = PaymentNetwork(rawValue: "BankAxept")
    /// A QR code used for payment.
    public static let barcode = PaymentNetwork(rawValue: "Barcode")
    /// Cartes Bancaires, the iOS 10.3 spelling (deprecated).
    public static let carteBancaire = PaymentNetwork(rawValue: "CarteBancaire")
    /// Cartes Bancaires, the iOS 11.0 spelling (deprecated).
    public static let carteBancaires = PaymentNetwork(rawValue: "CarteBancaires")
    /// Cartes Bancaires.
    public static let cartesBancaires = PaymentNetwork(rawValue: "CartesBancaires")
    /// China UnionPay.
    public static let chinaUnionPay = PaymentNetwork(rawValue: "ChinaUnionPay")
    /// Conecs (French meal vouchers).
    public static let conecs = PaymentNetwork(rawValue: "Conecs")
    /// Dankort.
    public static let dankort = PaymentNetwork(rawValue: "Dankort")
    /// Discover.
    public static let discover = PaymentNetwork(rawValue: "Discover")
    /// eftpos (Australia).
    public static let eftpos = PaymentNetwork(rawValue: "Eftpos")
    /// Elcard.
    public static let elcard = PaymentNetwork(rawValue: "Elcard")
    /// El Corte Inglés store cards.
    public static let elCorteIngles = PaymentNetwork(rawValue: "ElCorteIngles")
    /// Visa Electron.
    public static let electron = PaymentNetwork(rawValue: "Electron")
    /// Elo.
    public static let elo = PaymentNetwork(rawValue: "Elo")
    /// girocard.
    public static let girocard = PaymentNetwork(rawValue: "Girocard")
    /// Himyan (Oman).
    public static let himyan = PaymentNetwork(rawValue: "Himyan")
    /// iD (Japan).
    public static let idCredit = PaymentNetwork(rawValue: "iD")
    /// Interac.
    public static let interac = PaymentNetwork(rawValue: "Interac")
    /// JCB.
    public static let jcb = PaymentNetwork(rawValue: "JCB")
    /// Jaywan (United Arab Emirates).
    public static let jaywan = PaymentNetwork(rawValue: "Jaywan")
    /// mada (Saudi Arabia).
    public static let mada = PaymentNetwork(rawValue: "mada")
    /// Maestro.
    public static let maestro = PaymentNetwork(rawValue: "Maestro")
    /// Mastercard.
    public static let masterCard = PaymentNetwork(rawValue: "MasterCard")
    /// Meeza (Egypt).
    public static let meeza = PaymentNetwork(rawValue: "Meeza")
    /// Mir.
    public static let mir = PaymentNetwork(rawValue: "Mir")
    /// MyDebit (Malaysia).
    public static let myDebit = PaymentNetwork(rawValue: "MyDebit")
    /// NAPAS (Vietnam).
    public static let napas = PaymentNetwork(rawValue: "NAPAS")
    /// nanaco.
    public static let nanaco = PaymentNetwork(rawValue: "Nanaco")
    /// PagoBANCOMAT.
    public static let pagoBancomat = PaymentNetwork(rawValue: "PagoBancomat")
    /// PostFinance.
    public static let postFinance = PaymentNetwork(rawValue: "PostFinance")
    /// Store credit and debit cards.
    public static let privateLabel = PaymentNetwork(rawValue: "PrivateLabel")
    /// QUICPay.
    public static let quicPay = PaymentNetwork(rawValue: "QUICPay")
    /// Suica.
    public static let suica = PaymentNetwork(rawValue: "Suica")
    /// T-money.
    public static let tmoney = PaymentNetwork(rawValue: "Tmoney")
    /// Visa.
    public static let visa = PaymentNetwork(rawValue: "Visa")
    /// V Pay.
    public static let vPay = PaymentNetwork(rawValue: "VPay")
    /// WAON.
    public static let waon = PaymentNetwork(rawValue: "WAON")

    /// Every network PassKit defines, in Apple's documentation order.
    public static let allCases: [PaymentNetwork] = [
        .amex, .bancomat, .bancontact, .bankAxept, .barcode, .carteBancaire, .carteBancaires, .cartesBancaires,
        .chinaUnionPay, .conecs, .dankort, .discover, .eftpos, .elcard, .elCorteIngles, .electron, .elo, .girocard,
        .himyan, .idCredit, .interac, .jcb, .jaywan, .mada, .maestro, .masterCard, .meeza, .mir, .myDebit, .napas,
        .nanaco, .pagoBancomat, .postFinance, .privateLabel, .quicPay, .suica, .tmoney, .visa, .vPay, .waon,
    ]

    private static let byLowercasedRawValue = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.rawValue.lowercased(), $0) })

    /// Whether PassKit defines this network.
    public var isKnown: Bool { Self.byLowercasedRawValue[rawValue.lowercased()] == self }

    /// The known network spelled `name` in any case (`visa`, `AMEX`), or nil.
    public init?(caseInsensitive name: String) {
        guard let network = Self.byLowercasedRawValue[name.lowercased()] else { return nil }
        self = network
    }

    /// Decodes a string: a known network in any case becomes its PassKit spelling; others stay as written.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = PaymentNetwork(caseInsensitive: name) ?? PaymentNetwork(rawValue: name)
    }

    /// Encodes the raw value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The raw value.
    public var description: String { rawValue }
}
