public import Foundation

extension PaymentRequest {
    /// Decodes the JSON form (ISO 8601 dates, base64 `applicationData`), without validating it.
    ///
    /// - Throws: ``PaymentRequestError/Code/malformedJSON`` with the failing field's coding path.
    public init(json: Data) throws(PaymentRequestError) {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            self = try decoder.decode(PaymentRequest.self, from: json)
        } catch let error as DecodingError {
            throw PaymentRequestError(code: .malformedJSON, message: Self.describe(error))
        } catch {
            throw PaymentRequestError(code: .malformedJSON, message: "the JSON cannot be read")
        }
    }

    /// The JSON form, pretty-printed with sorted keys.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    // Names the path and the kind of failure; never echoes values beyond what the decoder's own debug text says
    // about the field's type.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "the document" : String(text.drop(while: { $0 == "." }))
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) is not a \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null, expected a \(type)"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "the JSON does not have the payment request's form"
        }
    }
}
