import ArgumentParser
import EMV
import SmartCard

extension Tap {
    /// Lists the PC/SC readers with whether a card is present and its ATR.
    struct Readers: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "readers",
            abstract: "List the PC/SC readers, whether a card is in each, and its ATR.",
            discussion: """
                Talks to pcscd through libpcsclite, loaded at run time (Debian: apt-get install libpcsclite1 pcscd). \
                A private pcscd is reached by setting PCSCLITE_CSOCK_NAME to its socket.
                """
        )

        @Flag(help: "Print the readers as JSON.") var json = false

        /// One reader in `--json`.
        struct Entry: Encodable {
            var name: String
            var cardPresent: Bool
            var atr: String?
        }

        func run() throws {
            let readers = try PCSCContext().readers()
            if json {
                try printJSON(
                    readers.map {
                        Entry(
                            name: $0.readerName, cardPresent: $0.isCardPresent,
                            atr: $0.isCardPresent ? $0.atr.hexString : nil)
                    })
                return
            }
            if readers.isEmpty { print("No PC/SC readers.") }
            for reader in readers { print(reader.description) }
        }
    }
}
