import CardEmulator
import EMV
import Foundation
import Testing

/// Shared helpers: the fixed environment, terminal data for the shipped cards, and the issuer- and terminal-side
/// checks (done with EMV's own verification types and the profile's issuer master keys, never the card's keys).
enum Fixtures {
    static let personalisationDate = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18
    static let environment = CardEnvironment.fixed(at: personalisationDate.addingTimeInterval(3_600), seed: 7)

    static func card(_ profile: CardProfile) throws -> EmulatedCard {
        try profile.personalize(on: personalisationDate, environment: environment)
    }

    static func visa() throws -> (CardProfile, EmulatedCard) {
        let profile = try CardProfile.visaTest
        return (profile, try card(profile))
    }

    static func mastercard() throws -> (CardProfile, EmulatedCard) {
        let profile = try CardProfile.mastercardTest
        return (profile, try card(profile))
    }

    /// 2026-11-18 as n6.
    static let transactionDate: [UInt8] = [0x26, 0x11, 0x18]

    /// Amount n12 of `minorUnits`.
    static func n12(_ minorUnits: Int) -> [UInt8] {
        var digits = String(minorUnits)
        digits = String(repeating: "0", count: 12 - digits.count) + digits
        return [UInt8](hex: digits) ?? []
    }

    static let readerTTQ: TerminalTransactionQualifiers = [
        .emvModeSupported, .onlinePINSupported, .signatureSupported, .odaForOnlineAuthorizationsSupported,
        .consumerDeviceCVMSupported,
    ]

    /// The Visa PDOL data: 9F66 9F02 9F03 9F1A 95 5F2A 9A 9C 9F37.
    static func visaPDOLData(
        ttq: TerminalTransactionQualifiers = readerTTQ, amount: Int = 1_234,
        unpredictableNumber: [UInt8] = [1, 2, 3, 4]
    ) -> [UInt8] {
        ttq.bytes + n12(amount) + n12(0) + [0x08, 0x26] + [0, 0, 0, 0, 0] + [0x08, 0x26] + transactionDate + [0x00]
            + unpredictableNumber
    }

    /// The Mastercard CDOL1 data: standard 9F02…9F37, then 9F35 9F45 9F4C 9F34 9F21 9F7C.
    static func mastercardCDOL1Data(
        amount: Int = 1_234, tvr: [UInt8] = [0, 0, 0, 0, 0], cvmResults: [UInt8] = [0x1F, 0x03, 0x02],
        unpredictableNumber: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBE], country: [UInt8] = [0x08, 0x26]
    ) -> [UInt8] {
        n12(amount) + n12(0) + country + tvr + [0x08, 0x26] + transactionDate + [0x00] + unpredictableNumber + [0x22]
            + [0, 0] + [UInt8](repeating: 0, count: 8) + cvmResults + [0x12, 0x00, 0x00]
            + [UInt8](repeating: 0, count: 20)
    }

    /// Issuer side: builds the chip data (field 55) a reader would send for this exchange and verifies its cryptogram
    /// as an issuer host does, with EMV's readers of field 55: the cryptogram version from the IAD and DF name, the
    /// cryptogram input from the data objects, the AC under the profile's issuer master key.
    ///
    /// Field 55 holds the terminal's values from the DOL data it `sent` (a later DOL's values replace an earlier
    /// one's, as CDOL2's TVR and UN do CDOL1's), the card's DF name, and the AIP (82), ATC (9F36), CID (9F27), IAD
    /// (9F10) and AC (9F26) the card's responses carry (a later response's replace an earlier one's); `cryptogram`
    /// is the AC the terminal recovered from a CDA signature, which a reader sends in 9F26.
    static func issuerVerifies(
        _ profile: CardProfile, sent terminal: [(dol: HexBytes?, data: [UInt8])], received responses: [TLVNode],
        cryptogram: [UInt8]? = nil
    ) throws -> Bool {
        let aid = profile.applications[0].aid.bytes
        var objects: [(tag: EMV.Tag, value: [UInt8])] = []
        func set(_ tag: EMV.Tag, _ value: [UInt8]) {
            if let index = objects.firstIndex(where: { $0.tag == tag }) {
                objects[index].value = value
            } else {
                objects.append((tag, value))
            }
        }
        for (dol, data) in terminal {
            let list = try DataObjectList(try #require(dol).bytes)
            let values = try #require(list.values(in: data), "DOL data of the list's length")
            for (tag, value) in values { set(tag, Array(value)) }
        }
        set(.dedicatedFileName, aid)
        let cardTags: [EMV.Tag] = [
            .applicationInterchangeProfile, .applicationTransactionCounter, .cryptogramInformationData,
            .issuerApplicationData, .applicationCryptogram,
        ]
        for response in responses {
            for tag in cardTags {
                if let node = response.first(tag) { set(tag, Array(node.value)) }
            }
        }
        if let cryptogram { set(.applicationCryptogram, cryptogram) }
        let field55 = try TLV.parse(
            try TLV.Serializer.serialize { serializer in
                for object in objects { try serializer.append(tag: object.tag, value: object.value) }
            })

        let version = try CryptogramVersion(
            issuerApplicationData: Array(try #require(field55.first(.issuerApplicationData)).value),
            applicationIdentifier: aid)
        #expect(version == (try profile.resolvedCryptogramVersion()))
        return try profile.issuerVerifiesCryptogram(
            inAuthorizationData: field55, pan: profile.pan, panSequenceNumber: profile.panSequenceNumber)
    }

    /// Reads every record the AFL names; returns them by "sfi.number" with the parsed templates.
    static func readRecords(_ card: inout EmulatedCard, afl: [UInt8]) throws -> ([String: [UInt8]], [TLVNodeCollection])
    {
        var records: [String: [UInt8]] = [:]
        var parsed: [TLVNodeCollection] = []
        for entry in stride(from: 0, to: afl.count, by: 4) {
            let sfi = afl[entry] >> 3
            for number in afl[entry + 1]...afl[entry + 2] {
                let response = card.respond(to: try .readRecord(number, sfi: sfi))
                #expect(response.statusWord == .success)
                records["\(sfi).\(number)"] = response.data
                parsed.append(try TLV.parse(response.data))  // strict: the card writes canonical TLV
            }
        }
        return (records, parsed)
    }

    /// Terminal side: recovers the issuer and ICC keys through the shipped test CA.
    static func recoverICCKey(
        records: [String: [UInt8]], parsed: [TLVNodeCollection], gpo: TLVNode, rid: [UInt8]
    ) throws -> RSAPublicKey {
        let oda = try ODACardData(collecting: parsed)
        let pan = Array(try #require(parsed.lazy.compactMap { $0.first(.applicationPAN) }.first).value)
        let afl = Array(try #require(gpo.first(.applicationFileLocator)).value)
        let aip = Array(try #require(gpo.first(.applicationInterchangeProfile)).value)
        let issuerKey = try oda.issuerPublicKey(
            caKeys: CardProfile.testCAPublicKeys, rid: rid, pan: pan, on: personalisationDate)
        let staticData = try StaticDataToBeAuthenticated(
            afl: afl, record: { records["\($0).\($1)"] }, applicationInterchangeProfile: aip,
            staticDataAuthenticationTagList: oda.staticDataAuthenticationTagList)
        return try oda.iccPublicKey(issuerKey: issuerKey, staticData: staticData, pan: pan, on: personalisationDate)
    }
}

extension TLVNode {
    /// The value of the first object with `tag` below this one.
    func bytes(_ tag: EMV.Tag) throws -> [UInt8] {
        Array(try #require(first(tag)).value)
    }
}
