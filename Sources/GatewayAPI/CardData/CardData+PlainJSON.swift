import EMV
import Foundation

// Plain-JSON readers of the sealed card data and its payload (see PlainJSONReader): each reads exactly the keys its
// Codable conformance reads, and refuses whatever that conformance would refuse or treat in its own way.

extension SealedCardData {
    static func read(_ reader: inout PlainJSONReader) -> Self? {
        var keyId: String?, readId: UUID?, deviceId: String?, merchantId: String?
        var encapsulatedKey: Data?, ciphertext: Data?
        var seen = PlainJSONReader.SeenKeys()
        let plain = reader.object { key, reader in
            if key.is("keyId") {
                return reader.value(&keyId, first: seen.first(0)) { $0.string() }
            } else if key.is("readId") {
                return reader.value(&readId, first: seen.first(1)) { $0.string().flatMap(UUID.init(text:)) }
            } else if key.is("deviceId") {
                return reader.value(&deviceId, first: seen.first(2)) { $0.string() }
            } else if key.is("merchantId") {
                return reader.value(&merchantId, first: seen.first(3)) { $0.string() }
            } else if key.is("encapsulatedKey") {
                // Data's default JSON form: base64.
                return reader.value(&encapsulatedKey, first: seen.first(4)) {
                    $0.string().flatMap { Data(base64Encoded: $0) }
                }
            } else if key.is("ciphertext") {
                return reader.value(&ciphertext, first: seen.first(5)) {
                    $0.string().flatMap { Data(base64Encoded: $0) }
                }
            }
            return false
        }
        guard plain, let keyId, let readId, let deviceId, let merchantId, let encapsulatedKey, let ciphertext else {
            return nil
        }
        return SealedCardData(
            keyId: keyId, readId: readId, deviceId: deviceId, merchantId: merchantId, encapsulatedKey: encapsulatedKey,
            ciphertext: ciphertext)
    }
}

extension CardDataPayload: PlainJSONDecodable {
    /// Reads the payload as `JSONDecoder.cardData` would (dates as seconds since 1970).
    package static func plainDecoded(from data: Data) -> Self? {
        PlainJSONReader.read(data) { reader in
            var readId: UUID?, deviceId: String?, merchantId: String?, createdAt: Date?
            var authorization: CardAuthorizationData?, pinBlock: [UInt8]?
            var seen = PlainJSONReader.SeenKeys()
            let plain = reader.object { key, reader in
                if key.is("readId") {
                    return reader.value(&readId, first: seen.first(0)) { $0.string().flatMap(UUID.init(text:)) }
                } else if key.is("deviceId") {
                    return reader.value(&deviceId, first: seen.first(1)) { $0.string() }
                } else if key.is("merchantId") {
                    return reader.value(&merchantId, first: seen.first(2)) { $0.string() }
                } else if key.is("createdAt") {
                    return reader.value(&createdAt, first: seen.first(3)) {
                        $0.double().map(Date.init(timeIntervalSince1970:))
                    }
                } else if key.is("authorization") {
                    return reader.value(&authorization, first: seen.first(4)) { CardAuthorizationData.read(&$0) }
                } else if key.is("pinBlock") {
                    return reader.nullableValue(&pinBlock, first: seen.first(5)) { reader in
                        var bytes: [UInt8] = []
                        let plain = reader.array { reader in
                            guard let byte = reader.integer(), let value = UInt8(exactly: byte) else { return false }
                            bytes.append(value)
                            return true
                        }
                        return plain ? bytes : nil
                    }
                }
                return false
            }
            guard plain, let readId, let deviceId, let merchantId, let createdAt, let authorization else { return nil }
            return CardDataPayload(
                readId: readId, deviceId: deviceId, merchantId: merchantId, createdAt: createdAt,
                authorization: authorization, pinBlock: pinBlock)
        }
    }
}

extension CardAuthorizationData {
    static func read(_ reader: inout PlainJSONReader) -> Self? {
        var mode: Mode?, iccData: [UInt8]?, pan: PAN?, panSequenceNumber: UInt8?
        var expiry: ExpiryDate?, track2: Track2EquivalentData?
        var seen = PlainJSONReader.SeenKeys()
        let plain = reader.object { key, reader in
            if key.is("mode") {
                return reader.value(&mode, first: seen.first(0)) { $0.string().flatMap(Mode.init(rawValue:)) }
            } else if key.is("iccData") {
                return reader.value(&iccData, first: seen.first(1)) { $0.string().flatMap { [UInt8](hex: $0) } }
            } else if key.is("pan") {
                return reader.value(&pan, first: seen.first(2)) { $0.string().flatMap { try? PAN($0) } }
            } else if key.is("panSequenceNumber") {
                return reader.nullableValue(&panSequenceNumber, first: seen.first(3)) {
                    $0.integer().flatMap { UInt8(exactly: $0) }
                }
            } else if key.is("expiry") {
                return reader.nullableValue(&expiry, first: seen.first(4)) {
                    $0.string().flatMap { [UInt8](hex: $0) }.flatMap { try? ExpiryDate(n4: $0) }
                }
            } else if key.is("track2") {
                return reader.nullableValue(&track2, first: seen.first(5)) {
                    $0.string().flatMap { [UInt8](hex: $0) }.flatMap { try? Track2EquivalentData(bytes: $0) }
                }
            }
            return false
        }
        guard plain, let mode, let iccData, let pan else { return nil }
        return CardAuthorizationData(
            mode: mode, iccData: iccData, pan: pan, panSequenceNumber: panSequenceNumber, expiry: expiry,
            track2: track2)
    }
}
