import EMV
import Foundation
import Gateway
import GatewayAPI
import ISO8583
import Issuer
import TestMode

/// Test cards tapped for real and the 0100 the gateway builds from each tap, for the issuer link tests.
enum LinkFixture {
    /// The test issuer: ``IssuerKeys/test`` and every test card's account, in memory.
    static func host() throws -> IssuerHost {
        let keys = try IssuerKeys.test
        return IssuerHost(keys: keys, repository: try TestCards.repository(keys: keys))
    }

    /// A fresh tap of `card` for `minorUnits` EUR cents, built into its 0100 (RRN: the STAN on 12 digits).
    static func request(_ card: TestCard, minorUnits: Int = 1_000, stan: Int = 1) async throws -> ISO8583Message {
        let tapper = try TestCardTapper(pan: card.pan, scheme: card.scheme == .visa ? .visa : .mastercard)
        let data = try await tapper.tap(amount: Amount(minorUnits: minorUnits, currency: .eur))
        return try AuthorizationRequest(
            card: data, amount: minorUnits, currency: .eur, systemTraceAuditNumber: stan,
            retrievalReferenceNumber: String(format: "%012d", stan), terminalID: "TERM0001",
            merchantID: "MERCHANT0000001", transmissionDate: Date()
        ).message()
    }
}
