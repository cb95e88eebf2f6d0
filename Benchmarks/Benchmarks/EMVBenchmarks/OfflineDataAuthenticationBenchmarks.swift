import Benchmark
import EMV
import Foundation

/// The terminal's fDDA check on a Visa contactless tap (EMV Book 2, 5.3, 6.4, 6.5; Book C-3 fDDA version 01).
///
/// The card is the first of Vectors/oda-test-card.json, made by our test CA and checked by an independent
/// implementation (scripts/oda-crosscheck.py): a 1984-bit CA key and a 1984-bit issuer key with e = 3 (so the
/// issuer key needs a 36-byte remainder, tag 92), a 1024-bit ICC key with e = 3.
func offlineDataAuthenticationBenchmarks() {
    // Everything a terminal does per tap when it caches nothing: recover and verify the issuer certificate with
    // the CA key, the ICC certificate with the issuer key (hashing the static data), then the SDAD with the ICC
    // key over the fDDA input. Three RSA public-key operations and three SHA-1s.
    Benchmark("fDDA verify: issuer + ICC certificates + SDAD (1984/1984/1024-bit, e=3)") {
        (benchmark, card: FDDACard) in
        for _ in benchmark.scaledIterations {
            blackHole(try card.verify())
        }
    } setup: {
        let card = try FDDACard()
        guard try card.verify() == [0x00, 0x2A] else {
            throw BenchmarkFixtures.SetupError("fDDA verification returned the wrong ICC dynamic number")
        }
        return card
    }

    // The per-tap part when the terminal already trusts the card's ICC key: one 1024-bit RSA and one SHA-1.
    Benchmark("fDDA verify: SDAD only, ICC key known (1024-bit, e=3)") { (benchmark, input: KnownICCKey) in
        for _ in benchmark.scaledIterations {
            let sdad = try SignedDynamicApplicationData(recovering: input.card.signedDynamicData, with: input.iccKey)
            try sdad.verify(terminalDynamicData: input.card.terminalDynamicData)
            blackHole(sdad)
        }
    } setup: {
        let card = try FDDACard()
        return KnownICCKey(card: card, iccKey: try card.verifyICCKey())
    }
}

/// A card whose ICC public key the terminal has already recovered.
private struct KnownICCKey {
    var card: FDDACard
    var iccKey: RSAPublicKey
}

/// What the terminal holds after reading the card's records and receiving its GPO response.
private struct FDDACard {
    var caKey: CAPublicKey
    var issuerCertificate: [UInt8]
    var issuerRemainder: [UInt8]
    var issuerExponent: [UInt8]
    var iccCertificate: [UInt8]
    var iccRemainder: [UInt8]
    var iccExponent: [UInt8]
    var pan: [UInt8]
    var staticData: [UInt8]
    var signedDynamicData: [UInt8]
    /// The fDDA input: UN, amount, currency and the card authentication related data (9F69).
    var terminalDynamicData: [UInt8]
    /// Inside every certificate's validity (they expire at the end of 12/2030): 2025-05-06.
    let transactionDate = Date(timeIntervalSince1970: 1_746_489_600)

    init() throws {
        struct File: Decodable {
            struct Card: Decodable {
                var caRID, caIndex, caModulus, caExponent: String
                var issuerCertificate, issuerRemainder, issuerExponent: String
                var iccCertificate, iccRemainder, iccExponent: String
                var pan, staticData: String
                var fDDA: FDDA
            }
            struct FDDA: Decodable {
                var unpredictableNumber, amountAuthorised, transactionCurrencyCode: String
                var cardAuthenticationRelatedData, signedDynamicApplicationData: String
            }
            var cards: [Card]
        }
        guard let card = try BenchmarkFixtures.vector("oda-test-card", as: File.self).cards.first else {
            throw BenchmarkFixtures.SetupError("oda-test-card.json has no card")
        }
        let hex = BenchmarkFixtures.bytes
        caKey = try CAPublicKey(
            rid: hex(card.caRID),
            index: hex(card.caIndex).first ?? 0,
            modulus: hex(card.caModulus),
            exponent: hex(card.caExponent)
        )
        issuerCertificate = try hex(card.issuerCertificate)
        issuerRemainder = try hex(card.issuerRemainder)
        issuerExponent = try hex(card.issuerExponent)
        iccCertificate = try hex(card.iccCertificate)
        iccRemainder = try hex(card.iccRemainder)
        iccExponent = try hex(card.iccExponent)
        pan = try hex(card.pan)
        staticData = try hex(card.staticData)
        signedDynamicData = try hex(card.fDDA.signedDynamicApplicationData)
        terminalDynamicData = try SignedDynamicApplicationData.fDDATerminalDynamicData(
            unpredictableNumber: hex(card.fDDA.unpredictableNumber),
            amountAuthorised: hex(card.fDDA.amountAuthorised),
            transactionCurrencyCode: hex(card.fDDA.transactionCurrencyCode),
            cardAuthenticationRelatedData: hex(card.fDDA.cardAuthenticationRelatedData)
        )
    }

    /// CA key → issuer key → ICC key.
    func verifyICCKey() throws -> RSAPublicKey {
        let issuerKey = try IssuerPublicKeyCertificate(recovering: issuerCertificate, with: caKey)
            .verify(remainder: issuerRemainder, exponent: issuerExponent, pan: pan, on: transactionDate)
        return try ICCPublicKeyCertificate(recovering: iccCertificate, with: issuerKey)
            .verify(
                remainder: iccRemainder, exponent: iccExponent, staticData: staticData, pan: pan, on: transactionDate)
    }

    /// The whole fDDA check; returns the ICC dynamic number the card signed.
    func verify() throws -> [UInt8] {
        let sdad = try SignedDynamicApplicationData(recovering: signedDynamicData, with: verifyICCKey())
        try sdad.verify(terminalDynamicData: terminalDynamicData)
        return try sdad.iccDynamicNumber()
    }
}
