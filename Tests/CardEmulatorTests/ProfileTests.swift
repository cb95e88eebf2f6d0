import CardEmulator
import EMV
import Foundation
import Testing

/// The shipped profiles and test CAs: they load, round-trip, chain to the CA, and bad profiles are refused by name.
@Suite struct ProfileTests {
    static func shipped() throws -> [CardProfile] {
        [try CardProfile.visaTest, try CardProfile.mastercardTest, try CardProfile.mastercardMagStripeTest]
    }

    @Test func testCAsAreTheDocumentedOnes() throws {
        let authorities = try CardProfile.testCertificateAuthorities
        #expect(authorities.map(\.publicKey.rid) == [[0xA0, 0, 0, 0, 0x03], [0xA0, 0, 0, 0, 0x04]])
        #expect(authorities.map(\.publicKey.index) == [0xE1, 0xE2])
        #expect(authorities.allSatisfy { $0.publicKey.key.modulusLength == 176 })
        let list = try CardProfile.testCAPublicKeys
        #expect(try list.key(rid: [0xA0, 0, 0, 0, 0x03], index: 0xE1) == authorities[0].publicKey)
    }

    @Test func shippedCertificatesChainToTheShippedTestCA() throws {
        let caKeys = try CardProfile.testCAPublicKeys
        for (profile, rid) in zip(
            try Self.shipped().prefix(2), [[UInt8]([0xA0, 0, 0, 0, 0x03]), [0xA0, 0, 0, 0, 0x04]])
        {
            let oda = try #require(profile.offlineDataAuthentication)
            let pan = try PAN(profile.pan).bcd
            let ca = try caKeys.key(rid: rid, index: oda.caPublicKeyIndex)
            let issuerKey = try IssuerPublicKeyCertificate(recovering: oda.issuerCertificate.bytes, with: ca).verify(
                remainder: oda.issuerRemainder.bytes, exponent: oda.issuerExponent.bytes, pan: pan,
                on: Fixtures.personalisationDate)
            #expect(issuerKey == oda.issuerPrivateKey?.publicKey)
            #expect(issuerKey.modulusLength == 144)
            let iccKey = try ICCPublicKeyCertificate(
                recovering: try #require(oda.iccCertificate).bytes, with: issuerKey
            ).verify(
                remainder: oda.iccRemainder?.bytes ?? [], exponent: oda.iccPrivateKey.publicKey.exponent,
                staticData: try profile.staticDataToBeAuthenticated(), pan: pan, on: Fixtures.personalisationDate)
            #expect(iccKey == oda.iccPrivateKey.publicKey)
            #expect(iccKey.modulusLength == 128)
        }
    }

    @Test func profilesRoundTripThroughJSON() throws {
        for profile in try Self.shipped() {
            let json = try profile.jsonData()
            let again = try CardProfile(jsonData: json)
            #expect(try again.jsonData() == json)
            #expect(String(decoding: json, as: UTF8.self).contains("\"pan\" : \"\(profile.pan)\""))
        }
    }

    @Test func personalisationCertifiesTheICCKeyWhenTheProfileCarriesNoCertificate() throws {
        var profile = try CardProfile.visaTest
        profile.offlineDataAuthentication?.iccCertificate = nil
        profile.offlineDataAuthentication?.iccRemainder = nil
        var card = try Fixtures.card(profile)
        _ = card.respond(to: try .select(name: profile.applications[0].aid.bytes))
        let gpo = try TLV.parseOne(card.respond(to: try .getProcessingOptions(pdolData: Fixtures.visaPDOLData())).data)
        let (records, parsed) = try Fixtures.readRecords(&card, afl: try gpo.bytes(.applicationFileLocator))
        let iccKey = try Fixtures.recoverICCKey(records: records, parsed: parsed, gpo: gpo, rid: [0xA0, 0, 0, 0, 0x03])
        #expect(iccKey == profile.offlineDataAuthentication?.iccPrivateKey.publicKey)

        // Without the issuer key there is nothing to certify with.
        profile.offlineDataAuthentication?.issuerPrivateKey = nil
        #expect(throws: CardEmulatorError.missingData) { try Fixtures.card(profile) }
    }

    @Test func badProfilesAreRefusedByField() throws {
        var profile = try CardProfile.mastercardMagStripeTest
        profile.pan = "5413339000001522"  // check digit wrong
        #expect(throws: CardEmulatorError.invalidProfile) { try Fixtures.card(profile) }

        profile = try CardProfile.mastercardMagStripeTest
        profile.cryptogramVersion = "mastercard16"  // session key needs the UN: cannot be precomputed
        #expect(throws: CardEmulatorError.unsupportedCryptogramVersion) { try Fixtures.card(profile) }

        profile = try CardProfile.mastercardMagStripeTest
        profile.records[0].tags.append("9F4D")
        #expect(throws: CardEmulatorError.missingData) { try Fixtures.card(profile) }

        profile = try CardProfile.mastercardMagStripeTest
        profile.records.append(.init(sfi: 1, number: 1, tags: ["5A"]))
        #expect(throws: CardEmulatorError.invalidProfile) { try Fixtures.card(profile) }

        profile = try CardProfile.mastercardMagStripeTest
        profile.issuerMasterKeys.ac = [0x01, 0x02]
        #expect(throws: CardEmulatorError.keyDerivationFailed) { try Fixtures.card(profile) }

        profile = try CardProfile.mastercardMagStripeTest
        profile.expiry = "12/30"
        #expect(throws: CardEmulatorError.invalidProfile) { try Fixtures.card(profile) }

        profile = try CardProfile.mastercardMagStripeTest
        profile.startingATC = 65_530
        #expect(throws: CardEmulatorError.invalidProfile) { try Fixtures.card(profile) }

        #expect(throws: DecodingError.self) { try CardProfile(jsonData: Data(#"{"pan": 5}"#.utf8)) }
    }

    @Test func afLIsComputedFromTheRecordLayout() throws {
        var (_, card) = try Fixtures.mastercard()
        _ = card.respond(to: try .select(name: [0xA0, 0, 0, 0, 0x04, 0x10, 0x10]))
        let gpo = try TLV.parseOne(card.respond(to: try .getProcessingOptions()).data)
        // SFI 2 record 1 (for ODA), SFI 3 records 1-2.
        #expect(try gpo.bytes(.applicationFileLocator) == [0x10, 0x01, 0x01, 0x01, 0x18, 0x01, 0x02, 0x00])
    }
}
