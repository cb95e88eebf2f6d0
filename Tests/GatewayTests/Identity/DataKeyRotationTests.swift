import _SQLStorage
import ContactlessTesting
import EMV
import Foundation
import Gateway
import GatewayAPI
import HTTPTypes
import HummingbirdTesting
import Issuer
import Testing

@Suite("Data key rotation while the gateway serves")
struct DataKeyRotationTests {
    /// Every value sealed under the data key, by where it is: the key id it names (nil: sealed under the key file's
    /// key, as before the first rotation).
    static func sealedValues(_ gateway: LiveGateway) async throws -> [String: String?] {
        var values: [String: String?] = [:]
        let ring = gateway.application.keys.dataKeyRing
        for (table, key, column) in [
            ("merchant_devices", "id", "pin_key"), ("payments", "id", "reversal_message"),
            ("payments", "id", "pending_card_data"),
        ] {
            let rows = try await gateway.application.database.query(
                "SELECT \(key), \(column) FROM \(table) WHERE \(column) IS NOT NULL", [])
            for row in rows {
                values["\(table).\(column) \(try row.text(key))"] = ring.keyId(of: try row.blob(column))
            }
        }
        return values
    }

    @Test(
        "a rotation seals PIN keys, reversals and pending card data again under the new key; all still open",
        arguments: TestDatabases.kinds)
    func rotate(_ kind: TestDatabases.Kind) async throws {
        try await LiveGateway.with(kind) { gateway in
            let approve = try #require(TestCards.card(.approve, .visa))
            let pinCard = try #require(TestCards.card(.onlinePINRequired, .mastercard))
            let held = try await gateway.pay(try gateway.tapper(approve), captureMethod: .manual)
                .decoded(Payment.self)
            #expect(held.status == .requiresCapture)
            let awaitingPIN = try await gateway.pay(try gateway.tapper(pinCard)).decoded(Payment.self)
            #expect(awaitingPIN.status == .requiresPIN)
            let before = try await Self.sealedValues(gateway)
            #expect(before.count >= 3 && before.values.allSatisfy { $0 == nil }, "\(before)")

            let rotation = DataKeyRotation(
                database: gateway.application.database, keys: gateway.application.keys,
                activationDelay: .milliseconds(300), settle: .milliseconds(300))
            let first = try await rotation.run()
            let after = try await Self.sealedValues(gateway)
            #expect(Set(after.keys) == Set(before.keys))
            #expect(after.values.allSatisfy { $0 == first.keyId }, "\(after)")
            #expect(first.resealed["payments.reversal_message"] == 1)
            #expect(first.resealed["merchant_devices.pin_key"] == 1)

            // Everything still opens: the PIN key comes back the same, the PIN is checked, the void reverses.
            let again = try await gateway.prepare(deviceId: gateway.deviceId)
            #expect(again.pinKey == gateway.provisioning.pinKey)
            let pinRequest = try #require(awaitingPIN.pinRequest)
            let block = try PINBlock.encipherISO4(pin: "1234", pan: pinCard.pan, key: Array(again.pinKey.key))
            let pinned = try await gateway.post(
                "/v1/payments/\(awaitingPIN.id)/pin",
                PINSubmission(pinToken: pinRequest.pinToken, pinBlock: block.hexString))
            #expect(try pinned.decoded(Payment.self).status == .succeeded, "\(pinned.text)")
            let voided = try await gateway.post("/v1/payments/\(held.id)/void", [String: String]())
            #expect(try voided.decoded(Payment.self).status == .canceled, "\(voided.text)")

            // A second rotation retires the first key; a node that loaded the key file anew learns the keys from
            // the database and opens what this one sealed.
            let second = try await rotation.run()
            #expect(second.retiredKeys == [first.keyId])
            #expect(try await Self.sealedValues(gateway).values.allSatisfy { $0 == second.keyId })
            let otherNode = try GatewayKeys.load(
                from: gateway.dataDirectory.appendingPathComponent(GatewayKeys.fileName))
            let sealed = gateway.application.keys.seal([1, 2, 3], authenticating: [9])
            #expect(throws: GatewayKeysError.self) { try otherNode.open(sealed, authenticating: [9]) }
            try await DataKeyStore(database: gateway.application.database).load(into: otherNode.dataKeyRing)
            #expect(try otherNode.open(sealed, authenticating: [9]) == [1, 2, 3])
        }
    }
}
