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
                    return reader.nullableValue(&kind, first: seen.first(3)) {
                        $0.string().flatMap(PaymentKind.init(rawValue:))
                    }
                } else if key.is("captureMethod") {
                    return reader.nullableValue(&captureMethod, first: seen.first(4)) {
                        $0.string().flatMap(CaptureMethod.init(rawValue:))
                    }
                } else if key.is("verificationReason") {
                    return reader.nullableValue(&verificationReason, first: seen.first(5)) {
                        $0.string().flatMap(VerificationReason.init(rawValue:))
                    }
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
