import ArgumentParser
import CardEmulator
import EMV
import Foundation
import ReaderKernel
import SmartCard
import ValueAddedServices

extension Tap {
    /// Runs one purchase on the reader kernel with the card in a PC/SC reader.
    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "read",
            abstract: "Run a contactless purchase on the EMV reader kernel with the card in a PC/SC reader.",
            discussion: """
                Waits for a card in the reader (any reader unless --reader is given), runs one purchase with the \
                default reader configuration, and prints the APDUs (card data masked), the kernel's decisions and \
                the outcome, like `tap demo`. Works with any PC/SC reader pcscd knows: a USB NFC reader, or vpcd's \
                virtual reader with `tap emulate --vpcd` on the other side. libpcsclite is loaded at run time \
                (Debian: apt-get install libpcsclite1 pcscd); a private pcscd is reached through \
                PCSCLITE_CSOCK_NAME.

                With --issuer-profile (visa, mastercard or a profile file) the ARQC is verified under that profile's \
                issuer master keys: only our test cards can be checked this way.

                Test options: --unpredictable-number, --transaction-date, --transaction-time and --terminal-country \
                fix what a reader otherwise draws or reads from its clock and configuration, so a test gets the same \
                card data every time and a recorded exchange whose signatures cover those values replays.

                --vas PASS_TYPE_ID (repeatable) first asks the phone's wallet for those merchants' loyalty passes \
                with Apple's VAS protocol (SELECT OSE.VAS.01, GET VAS DATA), then pays in the same tap; --vas-only \
                stops after the passes (one per tap, as VAS-only readers get); --vas-key decrypts the passes' \
                messages with the merchant's private key.

                Exit status: 0 when the kernel reached an outcome (any outcome, including Try Again after the card \
                left); 1 on an error (no pcscd, no reader, no card in time, bad arguments), or when the ARQC check \
                asked for fails.
                """
        )

        @Flag(help: "Read through PC/SC (pcscd).") var pcsc = false
        @Option(help: "The reader to use, as `tap readers` lists it (default: the first with a card).")
        var reader: String?
        @Option(help: "Seconds to wait for a card.") var timeout: Double = 30
        @Option(help: "Amount in major units, e.g. 12.34.") var amount: String = "12.34"
        @Option(help: "ISO 4217 currency, alphabetic or numeric.") var currency: String = "EUR"
        @Option(help: "Verify the ARQC under this test profile's issuer master keys: visa, mastercard or a file.")
        var issuerProfile: String?
        @Option(help: "A CA public key list (JSON) to use besides the test CA keys.") var caKeys: String?
        @Option(help: ArgumentHelp("Test option: the Unpredictable Number (9F37), 4 bytes.", valueName: "hex"))
        var unpredictableNumber: String?
        @Option(help: ArgumentHelp("Test option: the Transaction Date (9A), in UTC.", valueName: "YYMMDD"))
        var transactionDate: String?
        @Option(
            help: ArgumentHelp(
                "Test option: the Transaction Time (9F21), in UTC (default 12:00:00 with --transaction-date).",
                valueName: "HHMMSS"))
        var transactionTime: String?
        @Option(help: ArgumentHelp("Test option: the Terminal Country Code (9F1A).", valueName: "alpha-2"))
        var terminalCountry: String?
        @Option(
            help: ArgumentHelp(
                "Ask for this merchant's loyalty pass first (Apple VAS); repeatable.", valueName: "pass-type-id"))
        var vas: [String] = []
        @Flag(help: "With --vas: read the passes only, no payment.") var vasOnly = false
        @Option(
            help: ArgumentHelp(
                "With --vas: the merchant's VAS private key (PEM), to decrypt the passes.", valueName: "file"))
        var vasKey: [String] = []
        @Flag(help: "Also print each exchange's raw bytes (card data masked).") var trace = false
        @Flag(help: "Print the transaction as JSON.") var json = false

        func validate() throws {
            guard pcsc else { throw ValidationError("choose how to reach the card: --pcsc") }
            guard timeout > 0, timeout < 86_400 else { throw ValidationError("--timeout must be 0 to 86400 seconds") }
            _ = try replay()
            if vas.isEmpty && (vasOnly || !vasKey.isEmpty) {
                throw ValidationError("--vas-only and --vas-key need --vas")
            }
        }

        /// What the test options fix: the Unpredictable Number, the moment (UTC), the terminal's country.
        struct Replay {
            var unpredictableNumber: [UInt8]?
            var date: Date?
            var country: Country?
        }

        /// The test options parsed.
        func replay() throws -> Replay {
            var replay = Replay()
            if let unpredictableNumber {
                guard let bytes = [UInt8](hex: unpredictableNumber), bytes.count == 4 else {
                    throw ValidationError("--unpredictable-number must be 4 bytes of hex, e.g. 1CE40A77")
                }
                replay.unpredictableNumber = bytes
            }
            if transactionTime != nil, transactionDate == nil {
                throw ValidationError("--transaction-time needs --transaction-date")
            }
            if let transactionDate {
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.dateFormat = "yyMMddHHmmss"
                formatter.isLenient = false
                let text = transactionDate + (transactionTime ?? "120000")
                guard text.count == 12, text.allSatisfy(\.isASCII), let date = formatter.date(from: text) else {
                    throw ValidationError("--transaction-date is YYMMDD and --transaction-time HHMMSS, both valid")
                }
                replay.date = date
            }
            if let terminalCountry {
                guard let country = Country(alpha2: terminalCountry.uppercased()) else {
                    throw ValidationError("--terminal-country must be an ISO 3166 alpha-2 code, e.g. DE")
                }
                replay.country = country
            }
            return replay
        }

        func run() async throws {
            let amount = try Amount(argument: amount, currency: currency)
            let replay = try replay()
            var configuration = ReaderConfiguration.default(caPublicKeys: try CardKeys.caPublicKeys(adding: caKeys))
            if let country = replay.country { configuration.terminalCountry = country }
            let profile = try issuerProfile.map(CardKeys.issuerProfile)
            let session = try ReaderSession.connect(reader: reader, timeout: timeout, quiet: json)
            // Reset on the way out: the next tap starts with a card fresh from power-up, as a real tap does.
            defer { session.channel.disconnect(reset: true) }
            var loyalty: VASReport?
            if !vas.isEmpty {
                let mode: VASMode = vasOnly ? .vasOnly : .vasAndPayment
                let request = VASReader.Request(
                    merchants: vas.map { VASReader.Merchant(passTypeIdentifier: $0) }, mode: mode)
                let decryptor = vasKey.isEmpty ? nil : VASDecryptor(keys: try vasKey.map(loadVASKey))
                let outcome = try await VASReader.read(request, over: session.channel)
                loyalty = VASReport(outcome, mode: mode, decryptor: decryptor)
            }
            if vasOnly, let loyalty {
                if json {
                    try printJSON(LoyaltyRead(vas: loyalty, transaction: nil))
                } else {
                    print(loyalty.text(style: .forStandardOutput()))
                }
                return
            }
            var kernel = ReaderKernel(configuration: configuration)
            if let date = replay.date {
                kernel.clock = { date }
                kernel.timeZone = TimeZone(identifier: "UTC") ?? kernel.timeZone
            }
            if let number = replay.unpredictableNumber { kernel.unpredictableNumbers = { number } }
            let result = await kernel.perform(TransactionRequest(amount: amount), over: session.channel)
            var issuer: IssuerCheck?
            if let profile, let authorization = result.outcome.authorizationData, authorization.mode == .emv {
                issuer = try IssuerCheck(profile: profile, authorization: authorization)
            }
            let report = TransactionReport(
                card: profile.map { "\($0.name) (as --issuer-profile)" } ?? "card",
                setting: .reader(
                    name: session.channel.readerName, atr: session.channel.atr, transport: session.transport),
                amount: amount, cardholderVerifiedOnPhone: nil, paymentKeys: nil, result: result, issuer: issuer)
            if json {
                if let loyalty {
                    try printJSON(LoyaltyRead(vas: loyalty, transaction: report))
                } else {
                    try printJSON(report)
                }
            } else {
                if let loyalty { print(loyalty.text(style: .forStandardOutput()) + "\n") }
                print(report.text(style: .forStandardOutput(), trace: trace))
            }
            if issuer?.arqcVerified == false || issuer?.tamperedAmountRejected == false {
                standardError("tap read: the ARQC does not verify under the issuer master keys of --issuer-profile")
                throw ExitCode(1)
            }
        }
    }
}

/// `tap read --vas --json`: the passes, then the payment (null with --vas-only).
struct LoyaltyRead: Encodable {
    var vas: VASReport
    var transaction: TransactionReport?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(vas, forKey: .vas)
        try container.encode(transaction, forKey: .transaction)
    }

    private enum CodingKeys: String, CodingKey { case vas, transaction }
}
