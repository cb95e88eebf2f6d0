import CardEmulator
import Issuer
import Testing

@Suite("Test issuer keys")
struct TestKeysTests {
    @Test("IssuerKeys.test holds the shipped profiles' issuer master keys for the test BIN ranges")
    func masterKeysMatchProfiles() throws {
        let keys = try IssuerKeys.test
        for (prefix, profile) in [
            (TestCards.visaPrefix, try CardProfile.visaTest), (TestCards.mastercardPrefix, try CardProfile.mastercardTest),
        ] {
            let master = try #require(keys.masterKeys(forPAN: prefix + "0000"))
            #expect(master.ac == profile.issuerMasterKeys.ac.bytes)
            #expect(master.smi == profile.issuerMasterKeys.smi.bytes)
            #expect(master.smc == profile.issuerMasterKeys.smc.bytes)
        }
    }
}
