public import Crypto
public import Issuer
public import Logging
public import ServiceLifecycle
public import _SQLStorage

/// Which issuer host authorises, attached when the gateway starts: the link to it, the PIN key PIN blocks are
/// re-enciphered under for it, and whatever it needs to run beside the gateway.
///
/// The gateway knows no issuer of its own: ``tcp(host:port:pinEncryptionKey:)`` reaches a separate host over ISO
/// 8583, and the product's test mode (`TestMode`) attaches the test issuer in process, on the gateway's database.
public struct IssuerConnection: Sendable {
    /// What an issuer gets to attach itself: the gateway's open database, its key file's secret for an embedded
    /// issuer's keys, and the logger.
    public struct Context: Sendable {
        /// The gateway's database (its service runs before ``Attachment/prepare`` is called).
        public let database: any SQLDatabase
        /// A secret of the gateway's key file that an issuer in the same process may derive its keys from; nil for
        /// key files made before it existed.
        public let embeddedIssuerSecret: SymmetricKey?
        /// The gateway's logger.
        public let logger: Logger
    }

    /// An attached issuer.
    public struct Attachment: Sendable {
        /// How the gateway sends it 0100s and 0400s.
        public var link: any IssuerLink
        /// The key (AES-128 or AES-256) online PIN blocks are re-enciphered under for this issuer (ISO 9564
        /// format 4).
        public var pinEncryptionKey: [UInt8]
        /// Services to run in the gateway's service group (a TCP link's connections).
        public var services: [any Service]
        /// Run once the database's service runs, before the server accepts (an embedded issuer's schema).
        public var prepare: @Sendable () async throws -> Void
        /// The keys of an issuer host running in this process, for tests and tools that look at its accounts; nil
        /// for a separate host.
        public var embeddedIssuerKeys: IssuerKeys?

        /// An attachment.
        public init(
            link: any IssuerLink, pinEncryptionKey: [UInt8], services: [any Service] = [],
            prepare: @escaping @Sendable () async throws -> Void = {}, embeddedIssuerKeys: IssuerKeys? = nil
        ) {
            self.link = link
            self.pinEncryptionKey = pinEncryptionKey
            self.services = services
            self.prepare = prepare
            self.embeddedIssuerKeys = embeddedIssuerKeys
        }
    }

    let attach: @Sendable (Context) async throws -> Attachment

    /// An issuer attached by `attach` when the gateway starts.
    public init(attach: @escaping @Sendable (Context) async throws -> Attachment) {
        self.attach = attach
    }

    /// A separate issuer host (`tap issuer`, or any host speaking the ``TCPIssuerLink``'s ISO 8583) on TCP.
    /// - Parameter pinEncryptionKey: the PIN key agreed with that issuer (16 or 32 bytes).
    public static func tcp(host: String, port: Int, pinEncryptionKey: [UInt8]) -> IssuerConnection {
        IssuerConnection { context in
            let link = TCPIssuerLink(
                configuration: TCPIssuerLink.Configuration(host: host, port: port, connections: 2),
                logger: context.logger)
            return Attachment(link: link, pinEncryptionKey: pinEncryptionKey, services: [link])
        }
    }
}
