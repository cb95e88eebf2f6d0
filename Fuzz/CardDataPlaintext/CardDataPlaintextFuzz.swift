// libFuzzer target for the plaintext of sealed card data: the bytes HPKE opens to, as the gateway decodes them
// (CardDataOpener: JSONDecoder.cardData into CardDataPayload, whose card fields validate as EMV values). Any bytes
// either decode or throw; what decodes encodes again and decodes to the same payload.
// Compiled by scripts/test.d/30-fuzz.sh against the GatewayAPI files the payload needs and the EMV files they import
// (`modules`); seeded with payloads the way a reader SDK writes them.
import EMV
import Foundation
import GatewayAPI

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let plaintext = Data(UnsafeBufferPointer(start: data, count: size))
    guard let decoded = try? JSONDecoder.cardData.decode(CardDataPayload.self, from: plaintext) else { return 0 }
    _ = decoded.description
    guard let encoded = try? JSONEncoder.cardData.encode(decoded) else {
        fatalError("invariant failed: a decoded payload does not encode")
    }
    guard let again = try? JSONDecoder.cardData.decode(CardDataPayload.self, from: encoded), again == decoded else {
        fatalError("invariant failed: a payload does not survive encoding and decoding")
    }
    return 0
}
