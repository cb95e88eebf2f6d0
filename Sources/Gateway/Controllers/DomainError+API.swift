import GatewayAPI

extension DomainError {
    /// The API's error for a refused input: `notFound` or `invalidRequest`, with the same message (it names the
    /// field, never a secret).
    var apiError: GatewayAPIError {
        GatewayAPIError(code: code == .notFound ? .notFound : .invalidRequest, message: message)
    }

    /// Runs `body`, reporting a ``DomainError`` as the API's error.
    static func mapped<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as DomainError {
            throw error.apiError
        }
    }
}
