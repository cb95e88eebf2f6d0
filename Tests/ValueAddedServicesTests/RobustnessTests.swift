import CardEmulator
import Crypto
import EMV
import Foundation
import Testing
import ValueAddedServices

/// Random and mutated input never crashes the wallet's applet or the merchant's decryptor, and never gets a pass out
/// of the applet or a message out of the decryptor.
@Suite struct RobustnessTests {
    @Test func randomGetVASDataNeverReleasesAPass() throws {
        let key = P256.KeyAgreement.PrivateKey()
        let pass = try VASPass(
            passTypeIdentifier: "pass.com.example.coffee", serialNumber: "1", message: "m", encryptionKey: key.publicKey
        )
        var applet = VASApplet(passes: [pass], paymentReady: true, customerAuthenticated: true)
        var random = SeededRandomNumberGenerator(seed: 29)
        let valid = VASReader.getData(
            VASReader.Merchant(passTypeIdentifier: "pass.com.example.coffee"),
            capabilities: VASTerminalCapabilities(mode: .vasAndPayment))
        for round in 0..<3_000 {
            _ = applet.respond(to: VASProtocol.select)
            var data: [UInt8]
            if round % 2 == 0 {
                data = (0..<Int.random(in: 0...80, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random)
                }
            } else {
                // A valid request with one byte changed, dropped or added.
                data = valid.data
                let index = Int.random(in: 0..<data.count, using: &random)
                switch round % 3 {
                case 0: data[index] ^= UInt8.random(in: 1...255, using: &random)
                case 1: data.remove(at: index)
                default: data.insert(UInt8.random(in: 0...255, using: &random), at: index)
                }
            }
            let command = try CommandAPDU(cla: 0x80, ins: 0xCA, p1: 0x01, p2: 0x01, data: data, ne: 256)
            let response = applet.respond(to: command)
            // Only a request that still names the pass's hash, version and capabilities gets it.
            if response.statusWord == .success {
                let objects = try TLV.parse(data, rules: .lenient)
                #expect(objects.first(VASTag.merchantIDHash)?.value.elementsEqual(pass.merchantIDHash) == true)
            }
            applet.reset()
        }
    }

    @Test func mutatedCryptogramsNeverOpen() throws {
        let key = P256.KeyAgreement.PrivateKey()
        let now = Date()
        let cryptogram = try VASCryptogram.seal(
            "member-1001", timestamp: now, passTypeIdentifier: "pass.com.example.coffee", to: key.publicKey)
        let decryptor = VASDecryptor(keys: [key])
        var random = SeededRandomNumberGenerator(seed: 7)
        for _ in 0..<2_000 {
            var mutated = cryptogram
            let index = Int.random(in: 0..<mutated.count, using: &random)
            mutated[index] ^= UInt8.random(in: 1...255, using: &random)
            #expect(throws: VASError.self) {
                try decryptor.decrypt(mutated, passTypeIdentifier: "pass.com.example.coffee", now: now)
            }
        }
    }
}
