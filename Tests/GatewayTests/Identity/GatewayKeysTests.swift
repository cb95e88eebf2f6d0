import Crypto
import EMV
import Foundation
import Gateway
import GatewayAPI
import Testing

@Suite("Gateway key file")
struct GatewayKeysTests {
    /// A fresh directory under the temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func mode(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("the first start creates keys.json with mode 0600; the next loads the same keys")
    func createThenLoad() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dataDirectory = directory.appendingPathComponent("data")
        let created = try GatewayKeys.loadOrCreate(directory: dataDirectory)
        let file = dataDirectory.appendingPathComponent(GatewayKeys.fileName)
        #expect(try Self.mode(of: file) & 0o777 == 0o600)
        #expect(try Self.mode(of: dataDirectory) & 0o077 == 0)

        let loaded = try GatewayKeys.loadOrCreate(directory: dataDirectory)
        #expect(loaded.signingKeyId == created.signingKeyId)
        #expect(loaded.currentCardDataKeyId == created.currentCardDataKeyId)
        #expect(loaded.currentCardDataPublicKey.rawRepresentation == created.currentCardDataPublicKey.rawRepresentation)
        // The data key is the same: what one sealed, the other opens.
        let sealed = created.seal(Array("encrypted at rest".utf8), authenticating: [1, 2])
        #expect(try loaded.open(sealed, authenticating: [1, 2]) == Array("encrypted at rest".utf8))
        #expect(throws: GatewayKeysError.cannotOpen) { try loaded.open(sealed, authenticating: [1, 3]) }
    }

    @Test("a key file its group or others may read is refused", arguments: [0o640, 0o604, 0o644, 0o660])
    func insecureModeIsRefused(mode: Int) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try GatewayKeys.loadOrCreate(directory: directory)
        let file = directory.appendingPathComponent(GatewayKeys.fileName)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        #expect(throws: GatewayKeysError.insecurePermissions) { try GatewayKeys.load(from: file) }
        #expect(throws: GatewayKeysError.insecurePermissions) { try GatewayKeys.loadOrCreate(directory: directory) }
    }

    @Test("a malformed key file is a typed error")
    func malformedFile() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(GatewayKeys.fileName)
        FileManager.default.createFile(
            atPath: file.path, contents: Data(#"{"version":1}"#.utf8), attributes: [.posixPermissions: 0o600])
        #expect(throws: GatewayKeysError.malformed) { try GatewayKeys.load(from: file) }
    }

    @Test("rotation adds a new current key, persists, and data sealed to the old key still opens")
    func rotation() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var keys = try GatewayKeys.loadOrCreate(directory: directory)
        let oldSealer = keys.sealer()
        let oldId = keys.currentCardDataKeyId
        let payload = try CardDataPayload.fixture(merchantId: "mer_a", deviceId: "dev-1")
        let inFlight = try oldSealer.seal(payload)

        try keys.rotate()
        #expect(keys.currentCardDataKeyId != oldId)
        #expect(keys.cardDataKeyIds == [oldId, keys.currentCardDataKeyId])
        let file = directory.appendingPathComponent(GatewayKeys.fileName)
        #expect(try Self.mode(of: file) & 0o777 == 0o600)

        // A restarted node reads the rotated file and opens both the in-flight and the new data.
        let reloaded = try GatewayKeys.load(from: file)
        #expect(reloaded.currentCardDataKeyId == keys.currentCardDataKeyId)
        let opener = reloaded.opener(replayStore: InMemorySealedCardDataReplayStore(), clock: { payload.createdAt })
        let opened = try await opener.open(inFlight, merchantId: "mer_a", deviceId: "dev-1")
        #expect(opened.readId == payload.readId)
        let fresh = try CardDataPayload.fixture(merchantId: "mer_a", deviceId: "dev-1")
        let newData = try reloaded.sealer().seal(fresh)
        #expect(newData.keyId == reloaded.currentCardDataKeyId)
        #expect(try await opener.open(newData, merchantId: "mer_a", deviceId: "dev-1").readId == fresh.readId)

        // Once the retired key is dropped, data sealed to it is refused as unopenable.
        var pruned = reloaded
        try pruned.removeRetiredKeys(retiredBefore: Date().addingTimeInterval(1))
        #expect(pruned.cardDataKeyIds == [pruned.currentCardDataKeyId])
        let late = try oldSealer.seal(try CardDataPayload.fixture(merchantId: "mer_a", deviceId: "dev-1"))
        await #expect(throws: GatewayAPIError.cardDataInvalid) {
            try await pruned.opener(replayStore: InMemorySealedCardDataReplayStore())
                .open(late, merchantId: "mer_a", deviceId: "dev-1")
        }
    }

    @Test("description and dump name key ids only")
    func noKeysInDescriptions() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = try GatewayKeys.loadOrCreate(directory: directory)
        var dumped = ""
        dump(keys, to: &dumped)
        let rendered = [keys.description, String(describing: keys), String(reflecting: keys), dumped]
        for secret in try KeyFileSecrets(directory: directory).all {
            for text in rendered { #expect(!text.contains(secret)) }
        }
        #expect(keys.description.contains(keys.currentCardDataKeyId))
    }
}

/// The secret strings of a key file (base64 private keys and data key), for leak checks.
struct KeyFileSecrets {
    var all: [String]

    init(directory: URL) throws {
        let data = try Data(contentsOf: directory.appendingPathComponent(GatewayKeys.fileName))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        var secrets = [object["signingKey"] as? String, object["dataKey"] as? String].compactMap { $0 }
        for entry in object["cardDataKeys"] as? [[String: Any]] ?? [] {
            if let key = entry["privateKey"] as? String { secrets.append(key) }
        }
        // Also their hex forms.
        all = secrets + secrets.compactMap { Data(base64Encoded: $0).map { Array($0).hexString } }
    }
}

extension CardDataPayload {
    /// A payload with a new read id and synthetic card data (a made-up PAN), for a sealing round trip.
    static func fixture(merchantId: String, deviceId: String, createdAt: Date = Date()) throws -> CardDataPayload {
        CardDataPayload(
            deviceId: deviceId, merchantId: merchantId, createdAt: createdAt,
            authorization: CardAuthorizationData(
                mode: .emv, iccData: [0x9F, 0x36, 0x02, 0x00, 0x01], pan: try PAN("4000000000000002"),
                panSequenceNumber: nil, expiry: nil, track2: nil))
    }
}
