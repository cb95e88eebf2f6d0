import Crypto
import Foundation
import Testing
import ValueAddedServices

@Suite struct PassTests {
    let key = P256.KeyAgreement.PrivateKey().publicKey

    func json(_ nfc: String, pid: String = "pass.com.example.coffee") -> Data {
        Data(#"{"formatVersion": 1, "passTypeIdentifier": "\#(pid)", "serialNumber": "M-1", "nfc": \#(nfc)}"#.utf8)
    }

    @Test func readsAPassJSONWithACompressedKey() throws {
        // pass.json carries the key as compressed SubjectPublicKeyInfo, as `openssl ec -conv_form compressed` makes it.
        let compressed = Data(
            [
                0x30, 0x39, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A,
                0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x22, 0x00,
            ] + key.compressedRepresentation)
        let pass = try VASPass(
            passJSON: json(#"{"message": "member-1", "encryptionPublicKey": "\#(compressed.base64EncodedString())"}"#))
        #expect(pass.nfc.message == "member-1")
        #expect(pass.encryptionKey.rawRepresentation == key.rawRepresentation)
        #expect(pass.nfc.requiresAuthentication == false)
        #expect(pass.merchantIDHash == Array(SHA256.hash(data: Data("pass.com.example.coffee".utf8))))
    }

    @Test func storesAndReadsBack() throws {
        let pass = try VASPass(
            passTypeIdentifier: "pass.com.example.coffee", serialNumber: "M-1", message: "member-1",
            encryptionKey: key, organizationName: "Coffee", requiresAuthentication: true)
        #expect(try VASPass(passJSON: JSONEncoder().encode(pass)) == pass)
    }

    @Test func rejectsWhatVASCannotUse() throws {
        let good = key.derRepresentation.base64EncodedString()
        let bad: [Data] = [
            json(#"{"message": "m", "encryptionPublicKey": "\#(good)"}"#, pid: "com.example.coffee"),
            json(#"{"message": "", "encryptionPublicKey": "\#(good)"}"#),
            json(#"{"message": "\#(String(repeating: "x", count: 65))", "encryptionPublicKey": "\#(good)"}"#),
            json(#"{"message": "m", "encryptionPublicKey": "bm90IGEga2V5"}"#),
            json(#"{"encryptionPublicKey": "\#(good)"}"#),
            Data("not json".utf8),
        ]
        for data in bad {
            #expect { try VASPass(passJSON: data) } throws: { ($0 as? VASError)?.code == .invalidPass }
        }
        #expect(
            try VASPass(
                passJSON: json(
                    #"{"message": "\#(String(repeating: "x", count: 64))", "encryptionPublicKey": "\#(good)"}"#)
            ).nfc.message.count == 64)
    }
}
