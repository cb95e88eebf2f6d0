import Foundation
import NIOCore
import NIOPosix

/// Where the point of sale sends e-mailed receipts: an SMTP relay (`tap serve --smtp host:port --smtp-from …`).
public struct SMTPConfiguration: Sendable, Hashable {
    /// The relay's host.
    public var host: String
    /// The relay's port (25, 587, or a local relay's).
    public var port: Int
    /// The sender, e.g. `receipts@shop.example`.
    public var from: String

    /// Creates a configuration.
    public init(host: String, port: Int, from: String) {
        self.host = host
        self.port = port
        self.from = from
    }
}

/// Sends one plain-text message through an SMTP relay (RFC 5321: EHLO, MAIL, RCPT, DATA, QUIT), in at most 15 s.
///
/// The relay is the merchant's or the PSP's own (a local MTA, an internal relay): this client speaks plain SMTP and
/// leaves TLS and authentication to that relay. Only a checked recipient address reaches a header; the subject and
/// body are the gateway's own text.
struct ReceiptMailer: Sendable {
    let configuration: SMTPConfiguration

    /// Why a message was not sent.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Whether `address` is one mailbox we can write into an envelope and a header: local@domain, printable ASCII,
    /// no spaces, angle brackets or line breaks, at most 254 characters.
    static func isDeliverable(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard address.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix(".")
        else { return false }
        return address.unicodeScalars.allSatisfy {
            (0x21...0x7E).contains($0.value) && !"<>()[],;:\\\"".unicodeScalars.contains($0)
        }
    }

    /// `a•••@example.com`: enough for the merchant to recognise it, not the whole address (logs, notices, audit).
    static func masked(_ address: String) -> String {
        guard let at = address.firstIndex(of: "@") else { return "•••" }
        return String(address[..<address.index(after: address.startIndex)]) + "•••" + address[at...]
    }

    /// Sends `body` with `subject` to `recipient`.
    /// - Throws: ``Failure`` when the address is not deliverable, the relay cannot be reached in time or refuses a step.
    func send(to recipient: String, subject: String, body: String, now: Date = Date()) async throws {
        guard Self.isDeliverable(recipient), Self.isDeliverable(configuration.from) else {
            throw Failure(description: "not a mailbox address")
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.converse(recipient: recipient, subject: subject, body: body, now: now) }
            group.addTask {
                try await Task.sleep(for: .seconds(15))
                throw Failure(description: "the mail relay did not finish in 15 s")
            }
            try await group.next()
            group.cancelAll()
        }
    }

    private func converse(recipient: String, subject: String, body: String, now: Date) async throws {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .connect(host: configuration.host, port: configuration.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let message = Self.message(
            from: configuration.from, to: recipient, subject: subject, body: body, now: now)
        try await channel.executeThenClose { inbound, outbound in
            var replies = SMTPReplies(inbound.makeAsyncIterator())
            try await replies.expect(220, after: "connecting")
            for (command, code) in [
                ("EHLO contactless-gateway", 250), ("MAIL FROM:<\(configuration.from)>", 250),
                ("RCPT TO:<\(recipient)>", 250), ("DATA", 354),
            ] {
                try await outbound.write(ByteBuffer(string: command + "\r\n"))
                try await replies.expect(code, after: String(command.prefix(4)))
            }
            try await outbound.write(ByteBuffer(string: message + "\r\n.\r\n"))
            try await replies.expect(250, after: "the message")
            try await outbound.write(ByteBuffer(string: "QUIT\r\n"))
            try? await replies.expect(221, after: "QUIT")
        }
    }

    /// The message as DATA carries it: headers, a blank line, the body with CRLF line ends and leading dots doubled.
    static func message(from: String, to: String, subject: String, body: String, now: Date) -> String {
        let rfc2822 = DateFormatter()
        rfc2822.locale = Locale(identifier: "en_US_POSIX")
        rfc2822.timeZone = TimeZone(identifier: "UTC")
        rfc2822.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        let domain = from.split(separator: "@").last.map(String.init) ?? "localhost"
        let headers = [
            "From: \(from)", "To: \(to)", "Subject: \(subject)", "Date: \(rfc2822.string(from: now))",
            "Message-ID: <\(UUID().uuidString.lowercased())@\(domain)>", "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit",
        ]
        let lines = body.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map { $0.hasPrefix(".") ? "." + $0 : String($0) }
        return (headers + [""] + lines).joined(separator: "\r\n")
    }
}

/// The relay's replies, one at a time: a reply is lines `NNN-text` ending with `NNN text` (RFC 5321, 4.2).
private struct SMTPReplies {
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private var buffer = ByteBuffer()

    init(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) { self.inbound = inbound }

    /// Reads the next reply and checks its code.
    mutating func expect(_ code: Int, after step: String) async throws {
        while true {
            let line = try await nextLine()
            guard line.count >= 3, let received = Int(line.prefix(3)) else {
                throw ReceiptMailer.Failure(description: "the mail relay answered \(step) with no reply code")
            }
            if line.count > 3, line[line.index(line.startIndex, offsetBy: 3)] == "-" { continue }
            guard received == code else {
                throw ReceiptMailer.Failure(description: "the mail relay refused \(step): \(received)")
            }
            return
        }
    }

    private mutating func nextLine() async throws -> String {
        while true {
            if let end = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
                let length = end - buffer.readerIndex + 1
                let line = buffer.readString(length: length) ?? ""
                return line.trimmingCharacters(in: .newlines)
            }
            guard var more = try await inbound.next() else {
                throw ReceiptMailer.Failure(description: "the mail relay closed the connection")
            }
            buffer.writeBuffer(&more)
        }
    }
}
