import Foundation
import SmartCard

/// The PC/SC side of `tap read` and `tap bench pcsc`: waits for a card and connects to it, telling the person at
/// the terminal what it waits for (on standard error, so `--json` output stays clean).
struct ReaderSession {
    let context: PCSCContext
    let channel: PCSCChannel

    /// Waits up to `timeout` seconds for a card in `reader` (any reader when nil) and connects to it.
    static func connect(reader: String?, timeout: Double, quiet: Bool) throws -> ReaderSession {
        let context = try PCSCContext()
        if !quiet {
            let place = reader.map { "reader \"\($0)\"" } ?? "any reader"
            standardError("Waiting up to \(Self.format(timeout)) s for a card in \(place)…")
        }
        let state = try context.waitForCard(reader: reader, timeout: .milliseconds(Int64(timeout * 1000)))
        return ReaderSession(context: context, channel: try context.connect(reader: state.readerName))
    }

    /// `T=1, ATR 3B80800101` for the report.
    var transport: String { "\(channel.activeProtocol)" }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// One line on standard error.
func standardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
