import Crypto
import EMV
import Foundation
import Testing
import ValueAddedServices

/// Cryptograms recorded from real iPhones, opened with the merchant key their pass type publishes.
///
/// Provenance: PassKit publishes a demo pass type, `pass.com.passkit.pksamples.nfcdemo`, with its reader's private key
/// so that anyone can test VAS readers; the key is reproduced in kormax/android-universal-reader's
/// `assets/configuration.json`. The first cryptogram is the exchange printed in kormax/apple-vas's README
/// ("Communication example", payload `6d1UlFpnOc50iVKRaboDOK`), the second the example of Proxmark3's
/// `hf vas decrypt` help (RfidResearchGroup/proxmark3, `client/src/cmdhfvas.c`). Both were recorded from phones, so
/// they check our decryption against Apple's own encryption.
@Suite struct KnownAnswerTests {
    static let passTypeIdentifier = "pass.com.passkit.pksamples.nfcdemo"
    static let passKitDemoKey = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEID0VR/I814rQUqWIYPEhno+3kexN/jN2n1ub+mJ6ZWyhoAoGCCqGSM49
        AwEHoUQDQgAEwKMBv29ByaSLiGF0FctuyB+Hs2oZ1kDIYhTVllPexNGudAlm8IWO
        H0e+Exc97/zBdawu7Yl+XytQONszGzAK7w==
        -----END EC PRIVATE KEY-----
        """

    static let vectors: [(cryptogram: String, message: String, timestamp: String)] = [
        (
            "c0b77375d3f37956d84a538f28ac2a04b38ddc1a67d3647a4dd30abd736ea1cea8038388692e89db99e4746d872de782395640c5"
                + "36e79a75c47a9343da0af3937f06eeca7a865c4ad05a2c543ad2",
            "6d1UlFpnOc50iVKRaboDOK", "2023-07-09T16:35:58Z"
        ),
        (
            "c0b77375eae416b79449347f9fe838c05cdb57dc7470b97b93b806cb348771d9bfbe29d58538c7c7d7c3d015fa205b68bfccd726"
                + "058a62f7f44085ac98dbf877120fd9059f1507b956e0a6d56d0a",
            "499g3sYcKCp7WVI9qVogyT", "2023-07-09T14:39:50Z"
        ),
    ]

    static func key() throws -> P256.KeyAgreement.PrivateKey {
        try P256.KeyAgreement.PrivateKey(pemRepresentation: passKitDemoKey)
    }

    @Test func theDemoKeyHasTheCryptogramsKeyID() throws {
        #expect(VASCryptogram.keyID(of: try Self.key().publicKey) == [0xC0, 0xB7, 0x73, 0x75])
    }

    @Test(arguments: 0..<2) func recordedCryptogramsOpen(_ index: Int) throws {
        let vector = Self.vectors[index]
        let decryptor = VASDecryptor(keys: [try Self.key()], timestampWindow: nil)
        let opened = try decryptor.decrypt(
            [UInt8](hex: vector.cryptogram)!, passTypeIdentifier: Self.passTypeIdentifier)
        #expect(opened.message == vector.message)
        #expect(opened.timestamp == ISO8601DateFormatter().date(from: vector.timestamp))
    }

    @Test func theWindowRejectsARecordedCryptogramToday() throws {
        let decryptor = VASDecryptor(keys: [try Self.key()])
        #expect {
            try decryptor.decrypt(
                [UInt8](hex: Self.vectors[0].cryptogram)!, passTypeIdentifier: Self.passTypeIdentifier)
        } throws: { ($0 as? VASError)?.code == .timestampOutsideWindow }
    }

    @Test func anotherPassTypeDoesNotOpenIt() throws {
        let decryptor = VASDecryptor(keys: [try Self.key()], timestampWindow: nil)
        #expect {
            try decryptor.decrypt(
                [UInt8](hex: Self.vectors[0].cryptogram)!, passTypeIdentifier: "pass.com.example.other")
        } throws: { ($0 as? VASError)?.code == .authenticationFailed }
    }
}
