// libFuzzer target for the plaintext of sealed card data: the bytes HPKE opens to, as the gateway decodes them
// (CardDataOpener: the plain JSON reader first, JSONDecoder when it declines). Both readers take any bytes, and
// whatever the plain reader accepts, JSONDecoder reads the same way: the fast path may not change a payload.
// Compiled by scripts/test.d/30-fuzz.sh against the GatewayAPI files the payload needs and the EMV files they import
// (`modules`); seeded with payloads the way a reader SDK writes them.
import EMV
import Foundation
import GatewayAPI

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let plaintext = Data(UnsafeBufferPointer(start: data, count: size))
    let plain = CardDataPayload.plainDecoded(from: plaintext)
    let decoded = try? JSONDecoder.cardData.decode(CardDataPayload.self, from: plaintext)
    if let plain {
        guard let decoded else { fatalError("invariant failed: the plain reader took what JSONDecoder refuses") }
        guard plain == decoded else { fatalError("invariant failed: the plain reader and JSONDecoder disagree") }
        _ = plain.description
    }
    return 0
}
