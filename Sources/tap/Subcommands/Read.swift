import ArgumentParser
import CardEmulator
import EMV
import ReaderKernel
import SmartCard

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
        @Flag(help: "Also print each exchange's raw bytes (card data masked).") var trace = false
        @Flag(help: "Print the transaction as JSON.") var json = false

        func validate() throws {
            guard pcsc else { throw ValidationError("choose how to reach the card: --pcsc") }
            guard timeout > 0, timeout < 86_400 else { throw ValidationError("--timeout must be 0 to 86400 seconds") }
        }

        func run() async throws {
            let amount = try Amount(argument: amount, currency: currency)
            let configuration = ReaderConfiguration.default(caPublicKeys: try CardKeys.caPublicKeys(adding: caKeys))
            let profile = try issuerProfile.map(CardKeys.issuerProfile)
            let session = try ReaderSession.connect(reader: reader, timeout: timeout, quiet: json)
            // Reset on the way out: the next tap starts with a card fresh from power-up, as a real tap does.
            defer { session.channel.disconnect(reset: true) }
            let result = await ReaderKernel(configuration: configuration)
                .perform(TransactionRequest(amount: amount), over: session.channel)
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
                try printJSON(report)
            } else {
                print(report.text(style: .forStandardOutput(), trace: trace))
            }
            if issuer?.arqcVerified == false || issuer?.tamperedAmountRejected == false {
                standardError("tap read: the ARQC does not verify under the issuer master keys of --issuer-profile")
                throw ExitCode(1)
            }
        }
    }
}
