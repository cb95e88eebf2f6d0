import Foundation

extension CreatePaymentRequest: PlainJSONDecodable {
    /// Reads the request as `JSONDecoder.gatewayAPI` would, when it is plain JSON (see ``PlainJSONReader``).
    package static func plainDecoded(from data: Data) -> Self? {
        PlainJSONReader.read(data) { reader in
            var cardData: SealedCardData?, amount: Int?, currency: String?
            var kind: PaymentKind?, captureMethod: CaptureMethod?, verificationReason: VerificationReason?
            var seen = PlainJSONReader.SeenKeys()
            let plain = reader.object { key, reader in
                if key.is("cardData") {
                    return reader.value(&cardData, first: seen.first(0)) { SealedCardData.read(&$0) }
                } else if key.is("amount") {
                    return reader.value(&amount, first: seen.first(1)) { $0.integer() }
                } else if key.is("currency") {
                    return reader.value(&currency, first: seen.first(2)) { $0.string() }
                } else if key.is("kind") {
                    return seen.first(3) && reader.optional(&kind)
                } else if key.is("captureMethod") {
                    return seen.first(4) && reader.optional(&captureMethod)
                } else if key.is("verificationReason") {
                    return seen.first(5) && reader.optional(&verificationReason)
                }
                return false
            }
            guard plain, let cardData, let amount, let currency else { return nil }
            return CreatePaymentRequest(
                cardData: cardData, amount: amount, currency: currency, kind: kind, captureMethod: captureMethod,
                verificationReason: verificationReason)
        }
    }
}
