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
                keyId = seen.first(0) ? reader.string() : nil
                return keyId != nil
            } else if key.is("readId") {
                readId = seen.first(1) ? reader.string().flatMap(UUID.init(uuidString:)) : nil
                return readId != nil
            } else if key.is("deviceId") {
                deviceId = seen.first(2) ? reader.string() : nil
                return deviceId != nil
            } else if key.is("merchantId") {
                merchantId = seen.first(3) ? reader.string() : nil
                return merchantId != nil
            } else if key.is("encapsulatedKey") {
                // Data's default JSON form: base64.
                encapsulatedKey = seen.first(4) ? reader.string().flatMap { Data(base64Encoded: $0) } : nil
                return encapsulatedKey != nil
            } else if key.is("ciphertext") {
                ciphertext = seen.first(5) ? reader.string().flatMap { Data(base64Encoded: $0) } : nil
                return ciphertext != nil
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
                    readId = seen.first(0) ? reader.string().flatMap(UUID.init(uuidString:)) : nil
                    return readId != nil
                } else if key.is("deviceId") {
                    deviceId = seen.first(1) ? reader.string() : nil
                    return deviceId != nil
                } else if key.is("merchantId") {
                    merchantId = seen.first(2) ? reader.string() : nil
                    return merchantId != nil
                } else if key.is("createdAt") {
                    createdAt = seen.first(3) ? reader.double().map(Date.init(timeIntervalSince1970:)) : nil
                    return createdAt != nil
                } else if key.is("authorization") {
                    authorization = seen.first(4) ? CardAuthorizationData.read(&reader) : nil
                    return authorization != nil
                } else if key.is("pinBlock") {
                    guard seen.first(5) else { return false }
                    if reader.null() { return true }
                    var bytes: [UInt8] = []
                    guard
                        reader.array({ reader in
                            guard let byte = reader.integer(), let value = UInt8(exactly: byte) else { return false }
                            bytes.append(value)
                            return true
                        })
                    else { return false }
                    pinBlock = bytes
                    return true
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
                mode = seen.first(0) ? reader.string().flatMap(Mode.init(rawValue:)) : nil
                return mode != nil
            } else if key.is("iccData") {
                iccData = seen.first(1) ? reader.string().flatMap { [UInt8](hex: $0) } : nil
                return iccData != nil
            } else if key.is("pan") {
                pan = seen.first(2) ? reader.string().flatMap { try? PAN($0) } : nil
                return pan != nil
            } else if key.is("panSequenceNumber") {
                guard seen.first(3) else { return false }
                if reader.null() { return true }
                panSequenceNumber = reader.integer().flatMap { UInt8(exactly: $0) }
                return panSequenceNumber != nil
            } else if key.is("expiry") {
                guard seen.first(4) else { return false }
                if reader.null() { return true }
                expiry = reader.string().flatMap { [UInt8](hex: $0) }.flatMap { try? ExpiryDate(n4: $0) }
                return expiry != nil
            } else if key.is("track2") {
                guard seen.first(5) else { return false }
                if reader.null() { return true }
                track2 = reader.string().flatMap { [UInt8](hex: $0) }.flatMap { try? Track2EquivalentData(bytes: $0) }
                return track2 != nil
            }
            return false
        }
        guard plain, let mode, let iccData, let pan else { return nil }
        return CardAuthorizationData(
            mode: mode, iccData: iccData, pan: pan, panSequenceNumber: panSequenceNumber, expiry: expiry,
            track2: track2)
    }
}
