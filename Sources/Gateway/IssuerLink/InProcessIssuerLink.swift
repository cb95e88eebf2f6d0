public import Foundation
public import ISO8583
public import Issuer

/// An ``IssuerLink`` to an ``Issuer/IssuerHost`` in the same process: the embedded default of `tap serve`.
///
/// Each request and response goes through the ISO 8583 codec (encoded and decoded with the specification), so what
/// the host sees and what the caller gets are what TCP would carry. When the host stays silent (a test card's
/// simulated timeout) the link waits out the timeout with its `sleep`, then throws ``IssuerLinkError/timedOut``;
/// tests pass a sleep that returns at once.
public struct InProcessIssuerLink: IssuerLink {
    /// The host answering the requests.
    public let issuer: IssuerHost
    /// The message layout requests and responses are passed through.
    public let specification: Specification
    /// Whether `issuer`'s repository is on the gateway's own database (see ``IssuerLink/recordsInGatewayDatabase``).
    public let recordsInGatewayDatabase: Bool
    private let clock: @Sendable () -> Date
    private let sleep: @Sendable (Duration) async -> Void

    /// Creates a link.
    /// - Parameters:
    ///   - issuer: The host.
    ///   - specification: The codec's layout, ``ISO8583/Specification/contactless`` by default.
    ///   - recordsInGatewayDatabase: Whether the host's repository is on the gateway's own database.
    ///   - clock: The time handed to the host with each request.
    ///   - sleep: How a silent host's timeout is waited out; `Task.sleep` by default.
    public init(
        issuer: IssuerHost, specification: Specification = .contactless, recordsInGatewayDatabase: Bool = false,
        clock: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    ) {
        self.issuer = issuer
        self.specification = specification
        self.recordsInGatewayDatabase = recordsInGatewayDatabase
        self.clock = clock
        self.sleep = sleep
    }

    /// Hands `request` to the host and returns its answer.
    public func send(_ request: ISO8583Message, timeout: Duration) async throws(IssuerLinkError) -> ISO8583Message {
        let received: ISO8583Message
        do {
            received = try request.roundTripped(using: specification)
        } catch {
            throw IssuerLinkError(code: .invalidRequest, message: "the \(request.mti) does not encode: \(error.code)")
        }
        guard let answer = await issuer.handle(received, at: clock()) else {
            await sleep(timeout)
            throw IssuerLinkError(code: .timedOut, message: "no answer to the \(request.mti) within \(timeout)")
        }
        do {
            return try answer.roundTripped(using: specification).checkedResponse(to: request)
        } catch let error as IssuerLinkError {
            throw error
        } catch {
            throw IssuerLinkError(code: .malformedResponse, message: "the \(answer.mti) does not encode")
        }
    }
}
