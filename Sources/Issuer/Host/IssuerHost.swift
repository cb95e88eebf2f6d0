public import Foundation
public import ISO8583
import EMV

/// The issuer host's protocol core: takes an ISO 8583 request and returns the response, with no I/O of its own.
///
/// ```swift
/// let host = IssuerHost(keys: keys, repository: InMemoryIssuerRepository())
/// if let response = await host.handle(request, at: Date()) { send(response) } // nil: stay silent
/// ```
///
/// | request | response |
/// |---|---|
/// | 0100 authorization | 0110 with field 39, 38 when approved, 55 (tag 91, the ARPC) once the ARQC verified |
/// | 0100 token payment (field 22 `81x`, field 48) | 0110 with field 39, 38 when approved (``TokenVault``) |
/// | 0400 / 0420 reversal | 0410 / 0430: `00` reversed or already reversed, `25` original not found |
/// | any other request or advice | its response MTI with `40` (function not supported) |
/// | a response, or a test card's simulated timeout | nil: no answer |
///
/// State (balances, last ATCs, PIN tries, authorizations) lives in the ``IssuerRepository``, so the host is a
/// `Sendable` value that any number of connections share; the repository makes each decision atomic per account.
public struct IssuerHost: Sendable {
    /// The issuer's keys.
    public let keys: IssuerKeys
    /// Accounts and authorizations.
    public let repository: any IssuerRepository
    /// The token vault that authorizes device account numbers (``TokenPaymentData`` in field 48); nil when the
    /// host has none (token payments are then answered `14`).
    public let tokenVault: TokenVault?

    /// Creates a host; when the repository is also a ``TokenVaultRepository`` (both in-memory and SQL ones are),
    /// its vault serves token payments with the ``TokenRange/test`` ranges.
    public init(keys: IssuerKeys, repository: any IssuerRepository) {
        self.init(
            keys: keys, repository: repository,
            tokenVault: (repository as? any TokenVaultRepository).map {
                TokenVault(keys: keys, accounts: repository, tokens: $0)
            })
    }

    /// Creates a host with the given token vault.
    public init(keys: IssuerKeys, repository: any IssuerRepository, tokenVault: TokenVault?) {
        self.keys = keys
        self.repository = repository
        self.tokenVault = tokenVault
    }

    /// Answers one request received at `date`; nil means no answer (the transport lets the acquirer time out).
    public func handle(_ request: ISO8583Message, at date: Date) async -> ISO8583Message? {
        switch request.mti {
        case .authorizationRequest:
            return await authorize(request, at: date)
        case .reversalRequest, .reversalAdvice:
            return await reverse(request)
        default:
            guard request.mti.response != nil else { return nil }
            return response(to: request, code: .functionNotSupported)
        }
    }

    /// The response to `request` with field 39 only (and the echoed fields; never 14, 22, 23, 35, 52 or 55).
    func response(to request: ISO8583Message, code: ResponseCode) -> ISO8583Message {
        AuthorizationResponse(responseCode: code).message(answering: request)
    }
}
