public import Gateway
import Issuer
import Logging
import _SQLStorage

extension IssuerConnection {
    /// The test issuer, in process: an ``Issuer/IssuerHost`` with the test cards' accounts on the gateway's own
    /// database (its tables beside the gateway's), its data keys derived from the gateway's key file and its
    /// cryptogram and PIN keys the public test keys. What `tap serve` runs by default, like a PSP's test mode:
    /// never an issuer of real cards.
    public static var testIssuer: IssuerConnection {
        IssuerConnection { context in
            // Its answers reach no one before the payment's own durable commit (see SQLIssuerRepository.awaitsDisk).
            let repository = SQLIssuerRepository(database: context.database, awaitsDisk: false)
            let keys: IssuerKeys
            if let secret = context.embeddedIssuerSecret {
                keys = try IssuerKeys.test(dataKeysFrom: secret)
            } else {
                keys = try IssuerKeys.test
                context.logger.warning(
                    """
                    the key file predates per-install issuer keys: the embedded issuer's accounts are encrypted \
                    under the public test keys; start on a new data directory to protect them
                    """)
            }
            let database = context.database
            return Attachment(
                link: InProcessIssuerLink(
                    issuer: IssuerHost(keys: keys, repository: repository), recordsInGatewayDatabase: true),
                pinEncryptionKey: IssuerKeys.testPINEncryptionKey,
                prepare: {
                    try await IssuerSchema.migrator.migrate(database)
                    try await TestCards.seed(repository, keys: keys)
                },
                embeddedIssuerKeys: keys)
        }
    }

    /// The test issuer host of `tap issuer` on TCP, with the test PIN key it shares.
    public static func testIssuer(host: String, port: Int) -> IssuerConnection {
        .tcp(host: host, port: port, pinEncryptionKey: IssuerKeys.testPINEncryptionKey)
    }
}
