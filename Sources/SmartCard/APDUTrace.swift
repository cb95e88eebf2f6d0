public import EMV

/// A recorded conversation between a reader and a card: command/response pairs with comments.
///
/// The text format is line based, so a trace reads well in a diff and can be pasted from a log:
///
/// ```text
/// # source: https://github.com/owner/repo/blob/<commit>/path   <- header: the leading comment block
/// # licence: Apache-2.0
/// # outcome: online request (ARQC)
///
/// # SELECT PPSE                                                 <- comments before an exchange belong to it
/// 00A404000E325041592E5359532E444446303100 : 6F23840E...9000
/// 80A8000002830000 : 7712820219809408... 9000   # GPO         <- an inline note after the response
/// ```
///
/// - Each exchange is one line: the command APDU in hex, a `:`, and the whole response APDU in hex including the
///   status word SW1 SW2. Hex digits are upper or lower case; spaces and tabs between them are ignored, so logs
///   that print `00 A4 04 00` paste as they are.
/// - `#` starts a comment, on its own line or after the response. Blank lines are ignored.
/// - The header is the comment block before the first blank line (or the first exchange): it records provenance
///   (`source:`, `licence:`, `changes:`, `outcome:` …), read with ``headerValue(_:)``; a value continues on the
///   header lines after it that start with a space (`#   …`). Comments after that blank
///   line and before an exchange are that exchange's ``Exchange/comments``; comments after the last exchange are
///   the ``trailer``.
///
/// Parsing reports every malformed line as an ``APDUTraceError`` with its line number. ``text`` writes the trace
/// back in canonical form (compact upper-case hex, one blank line after the header), which parses to an equal
/// trace. Commands are kept as ``EMV/CommandAPDU`` values, so an extended-length encoding of a command that fits
/// the short form is written back short.
public struct APDUTrace: Hashable, Sendable {
    /// One command and the card's answer.
    public struct Exchange: Hashable, Sendable {
        /// The command the reader sent.
        public var command: CommandAPDU
        /// The card's answer, status word included.
        public var response: ResponseAPDU
        /// Comment lines just before the exchange, without the leading `#`.
        public var comments: [String]
        /// The inline comment after the response, without the `#`.
        public var note: String?
        /// The line the exchange was read from (1-based); 0 for exchanges built in code. Not part of equality.
        public var lineNumber: Int

        /// Creates an exchange.
        public init(
            command: CommandAPDU, response: ResponseAPDU, comments: [String] = [], note: String? = nil,
            lineNumber: Int = 0
        ) {
            self.command = command
            self.response = response
            self.comments = comments
            self.note = note
            self.lineNumber = lineNumber
        }

        /// Exchanges are equal when their bytes and comments are; where they were read from does not matter.
        public static func == (lhs: Exchange, rhs: Exchange) -> Bool {
            lhs.command == rhs.command && lhs.response == rhs.response && lhs.comments == rhs.comments
                && lhs.note == rhs.note
        }

        /// Hashes what equality compares.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(command)
            hasher.combine(response)
            hasher.combine(comments)
            hasher.combine(note)
        }
    }

    /// The leading comment block: provenance and what the trace shows.
    public var header: [String]
    /// The exchanges, in the order they happened.
    public var exchanges: [Exchange]
    /// Comment lines after the last exchange.
    public var trailer: [String]

    /// Creates a trace.
    public init(header: [String] = [], exchanges: [Exchange] = [], trailer: [String] = []) {
        self.header = header
        self.exchanges = exchanges
        self.trailer = trailer
    }

    /// The value of the first header line of the form `key: value` (key compared case-insensitively), trimmed.
    ///
    /// A value continues on the header lines after it that start with a space (`#   more text`), joined with
    /// single spaces, so long provenance notes stay readable in the file.
    public func headerValue(_ key: String) -> String? {
        for (index, line) in header.enumerated() {
            guard line.first != " ", let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingWhitespace()
            guard name.lowercased() == key.lowercased() else { continue }
            var parts = [line[line.index(after: colon)...].trimmingWhitespace()]
            for continuation in header[(index + 1)...] {
                guard continuation.first == " " else { break }
                parts.append(continuation.trimmingWhitespace())
            }
            return parts.filter { !$0.isEmpty }.joined(separator: " ")
        }
        return nil
    }
}

extension APDUTrace {
    /// Parses trace text.
    ///
    /// - Throws: ``APDUTraceError`` for the first malformed line: ``APDUTraceError/Code/missingSeparator``,
    ///   ``APDUTraceError/Code/extraSeparator``, ``APDUTraceError/Code/invalidHex``,
    ///   ``APDUTraceError/Code/malformedCommand`` or ``APDUTraceError/Code/malformedResponse``.
    public init(text: String) throws(APDUTraceError) {
        var header: [String] = []
        var exchanges: [Exchange] = []
        var pending: [String] = []
        // The header ends at the first blank line or the first exchange, whichever comes first.
        var inHeader = true
        // `\r\n` is one Character in Swift, so split on any newline rather than on "\n".
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let lineNumber = index + 1
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty {
                inHeader = false
                continue
            }
            if line.first == "#" {
                let comment = Self.commentText(line.dropFirst())
                if inHeader { header.append(comment) } else { pending.append(comment) }
                continue
            }
            inHeader = false
            var exchange = try Self.parseExchange(rawLine, lineNumber: lineNumber)
            exchange.comments = pending
            pending = []
            exchanges.append(exchange)
        }
        self.init(header: header, exchanges: exchanges, trailer: pending)
    }

    /// The canonical text of the trace; parsing it gives back an equal trace.
    public var text: String {
        var out = ""
        for line in header { out += Self.commentLine(line) }
        // The blank line ends the header; it is needed too when comments follow that are not header lines.
        let nextIsComment = exchanges.first.map { !$0.comments.isEmpty } ?? !trailer.isEmpty
        if !header.isEmpty || nextIsComment { out += "\n" }
        for exchange in exchanges {
            for line in exchange.comments { out += Self.commentLine(line) }
            out += exchange.command.bytes.hexString
            out += " : "
            out += exchange.response.bytes.hexString
            if let note = exchange.note { out += note.isEmpty ? "  #" : "  # \(note)" }
            out += "\n"
        }
        for line in trailer { out += Self.commentLine(line) }
        return out
    }

    private static func commentLine(_ text: String) -> String {
        text.isEmpty ? "#\n" : "# \(text)\n"
    }

    /// A comment's text: what follows `#`, without one leading space and without trailing whitespace; further
    /// leading spaces stay (they mark a continued header value).
    private static func commentText(_ body: Substring) -> String {
        var text = body.first == " " ? body.dropFirst() : body
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        return String(text)
    }

    /// One exchange line: `<command hex> : <response hex> [# note]`.
    private static func parseExchange(_ line: Substring, lineNumber: Int) throws(APDUTraceError) -> Exchange {
        var content = line
        var note: String?
        if let hash = line.firstIndex(of: "#") {
            content = line[..<hash]
            note = commentText(line[line.index(after: hash)...])
        }
        let parts = content.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2 else {
            throw APDUTraceError(
                code: .missingSeparator, lineNumber: lineNumber,
                message: "expected `<command hex> : <response hex>`, found no `:`")
        }
        guard parts.count == 2 else {
            let second = content.indices.filter { content[$0] == ":" }[1]
            throw APDUTraceError(
                code: .extraSeparator, lineNumber: lineNumber, column: column(of: second, in: line),
                message: "more than one `:` on the line")
        }
        let commandBytes = try bytes(parts[0], side: "command", line: line, lineNumber: lineNumber)
        let responseBytes = try bytes(parts[1], side: "response", line: line, lineNumber: lineNumber)
        let command: CommandAPDU
        do {
            command = try CommandAPDU(bytes: commandBytes)
        } catch {
            let reason = (error as? APDUError).map { "\($0.code)" } ?? "unparseable"
            throw APDUTraceError(
                code: .malformedCommand, lineNumber: lineNumber, column: column(of: parts[0].startIndex, in: line),
                message: "the command (\(commandBytes.count) bytes) is not a command APDU: \(reason)")
        }
        guard responseBytes.count >= 2 else {
            throw APDUTraceError(
                code: .malformedResponse, lineNumber: lineNumber, column: column(of: parts[1].startIndex, in: line),
                message: "the response has \(responseBytes.count) bytes, fewer than the status word's 2")
        }
        let response = ResponseAPDU(
            data: Array(responseBytes.dropLast(2)),
            statusWord: StatusWord(
                sw1: responseBytes[responseBytes.count - 2], sw2: responseBytes[responseBytes.count - 1]))
        return Exchange(command: command, response: response, note: note, lineNumber: lineNumber)
    }

    /// Decodes one side of a line: hex digits with optional spaces or tabs between them.
    private static func bytes(
        _ side: Substring, side name: String, line: Substring, lineNumber: Int
    ) throws(APDUTraceError) -> [UInt8] {
        var digits: [UInt8] = []
        digits.reserveCapacity(side.utf8.count)
        for index in side.indices {
            let character = side[index]
            if character == " " || character == "\t" || character == "\r" { continue }
            guard character.isHexDigit, let ascii = character.asciiValue else {
                throw APDUTraceError(
                    code: .invalidHex, lineNumber: lineNumber, column: column(of: index, in: line),
                    message: "the \(name) holds a character that is not a hex digit")
            }
            digits.append(ascii)
        }
        guard digits.count % 2 == 0, let bytes = [UInt8](hex: String(decoding: digits, as: UTF8.self)) else {
            throw APDUTraceError(
                code: .invalidHex, lineNumber: lineNumber, column: column(of: side.startIndex, in: line),
                message: "the \(name) has an odd number of hex digits (\(digits.count))")
        }
        return bytes
    }

    /// The 1-based character column of `index` in `line`.
    private static func column(of index: Substring.Index, in line: Substring) -> Int {
        line.distance(from: line.startIndex, to: index) + 1
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and carriage returns (Windows line ends).
    fileprivate func trimmingWhitespace() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
