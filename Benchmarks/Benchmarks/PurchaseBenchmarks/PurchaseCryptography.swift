import CardEmulator
import EMV
import Foundation
import ReaderKernel
import Benchmark

/// The cryptographic operations of one ``Purchase``, card and reader side, on the inputs its reference run produced:
///
/// - card: the application cryptogram under the transaction's limited-use key, and the RSA signature (fDDA over the
///   terminal's UN, amount and currency; CDA over the transaction data hash);
/// - reader: the issuer certificate recovered with the CA key, the ICC certificate with the issuer key over the
///   static data, and the card's signature verified with the ICC key (for CDA, with the transaction data hash).
struct PurchaseCryptography: Sendable {
    private let scheme: CardProfile.Scheme
    private let sessionKey: [UInt8]
    private let cryptogramData: [UInt8]
    private let padding: ApplicationCryptogram.Padding
    private let iccPrivateKey: RSAPrivateKey
    private let oda: ODACardData
    private let caKeys: CAPublicKeyList
    private let rid: [UInt8]
    private let pan: [UInt8]
    private let date: Date
    private let afl: [UInt8]
    private let aip: [UInt8]
    private let records: [[UInt8]: [UInt8]]
    private let unpredictableNumber: [UInt8]
    // Visa: the fDDA input; Mastercard: the CDA inputs.
    private let fDDAInput: [UInt8]
    private let iccDynamicNumber: [UInt8]
    private let pdolData: [UInt8]
    private let cdol1Data: [UInt8]
    private let generateACResponse: [UInt8]

    init(_ purchase: Purchase) throws {
        let reference = purchase.reference
        guard let authorization = reference.outcome.authorizationData,
            let oda = purchase.profile.offlineDataAuthentication
        else { throw Purchase.SetupError(description: "no authorization data or ODA profile") }
        scheme = purchase.profile.scheme
        let field55 = try authorization.iccDataObjects()
        let aid = try Self.value(.dedicatedFileName, in: field55)
        let version = try CryptogramVersion(
            issuerApplicationData: try Self.value(.issuerApplicationData, in: field55), applicationIdentifier: aid)
        cryptogramData = try CryptogramData(version: version, authorizationData: field55).bytes(for: version)
        padding = version.padding
        let atc = try Self.value(.applicationTransactionCounter, in: field55)
        let atcNumber = UInt16(atc[0]) << 8 | UInt16(atc[1])
        guard let key = try purchase.profile.limitedUseKeys(atcs: atcNumber...atcNumber, validUntil: .distantFuture).first
        else { throw Purchase.SetupError(description: "no limited-use key for the ATC") }
        sessionKey = key.sessionKey
        iccPrivateKey = oda.iccPrivateKey
        caKeys = try CardProfile.testCAPublicKeys
        rid = Array(aid.prefix(5))
        pan = authorization.pan.bcd
        date = purchase.kernel.clock()
        unpredictableNumber = try Self.value(.unpredictableNumber, in: field55)

        var collected = ODACardData()
        var records: [[UInt8]: [UInt8]] = [:]
        var afl: [UInt8] = []
        var aip: [UInt8] = []
        var pdolData: [UInt8] = []
        var cdol1Data: [UInt8] = []
        var generateACResponse: [UInt8] = []
        for exchange in reference.exchanges {
            guard let response = exchange.response, response.isSuccess else { continue }
            let nodes = try TLV.parse(response.data)
            switch exchange.command.instruction {
            case .readRecord:
                records[[exchange.command.p2 >> 3, exchange.command.p1]] = response.data
                try collected.collect(from: nodes)
            case .getProcessingOptions:
                pdolData = Array(exchange.command.data.dropFirst(2))
                afl = nodes.first?.first(.applicationFileLocator).map { Array($0.value) } ?? []
                aip = nodes.first?.first(.applicationInterchangeProfile).map { Array($0.value) } ?? []
                try collected.collect(from: nodes)
            case .generateAC:
                cdol1Data = exchange.command.data
                generateACResponse = response.data
            default: continue
            }
        }
        self.oda = collected
        self.records = records
        self.afl = afl
        self.aip = aip
        self.pdolData = pdolData
        self.cdol1Data = cdol1Data
        self.generateACResponse = generateACResponse
        fDDAInput = try SignedDynamicApplicationData.fDDATerminalDynamicData(
            unpredictableNumber: unpredictableNumber, amountAuthorised: try Self.value(.amountAuthorised, in: field55),
            transactionCurrencyCode: try Self.value(.transactionCurrencyCode, in: field55),
            cardAuthenticationRelatedData: collected[.cardAuthenticationRelatedData])
        iccDynamicNumber = scheme == .visa ? atc : try Self.verifyCDA(
            generateACResponse, iccKey: try Self.iccPublicKey(
                oda: collected, caKeys: caKeys, rid: rid, pan: pan, date: date, afl: afl, aip: aip, records: records),
            unpredictableNumber: unpredictableNumber, pdolData: pdolData, cdol1Data: cdol1Data
        ).iccDynamicNumber
        guard try run() else { throw Purchase.SetupError(description: "the reference transaction's ODA does not verify") }
    }

    /// Card then reader; true when the reader accepts the card's signature.
    func run() throws -> Bool {
        let cryptogram = try ApplicationCryptogram.generate(sessionKey: sessionKey, data: cryptogramData, padding: padding)
        let iccKey = try Self.iccPublicKey(
            oda: oda, caKeys: caKeys, rid: rid, pan: pan, date: date, afl: afl, aip: aip, records: records)
        switch scheme {
        case .visa:
            let signature = try iccPrivateKey.signFastDynamicApplicationData(
                iccDynamicNumber: iccDynamicNumber, terminalDynamicData: fDDAInput)
            let signed = try SignedDynamicApplicationData(
                recovering: signature, with: iccKey, format: SignedDynamicApplicationData.fDDAFormat)
            try signed.verify(terminalDynamicData: fDDAInput)
        case .mastercard:
            // The card signs its response; the reader checks that signature (the cryptogram inside it is the
            // reference one, so the recorded response verifies).
            let template = try TLV.parseOne(generateACResponse[...])
            let hash = CDADynamicData.transactionDataHashCode(
                pdolData: pdolData, cdol1Data: cdol1Data,
                responseData: try SignedDynamicApplicationData.cdaResponseData(generateACResponse: template))
            let dynamic = try CDADynamicData(
                iccDynamicNumber: iccDynamicNumber, cryptogramInformationData: 0x80,
                applicationCryptogram: cryptogram, transactionDataHashCode: hash)
            blackHole(try iccPrivateKey.signDynamicApplicationData(
                iccDynamicData: dynamic.bytes, terminalDynamicData: unpredictableNumber))
            _ = try Self.verifyCDA(
                generateACResponse, iccKey: iccKey, unpredictableNumber: unpredictableNumber, pdolData: pdolData,
                cdol1Data: cdol1Data)
        }
        return true
    }

    private static func iccPublicKey(
        oda: ODACardData, caKeys: CAPublicKeyList, rid: [UInt8], pan: [UInt8], date: Date, afl: [UInt8], aip: [UInt8],
        records: [[UInt8]: [UInt8]]
    ) throws -> RSAPublicKey {
        let issuerKey = try oda.issuerPublicKey(caKeys: caKeys, rid: rid, pan: pan, on: date)
        let staticData = try StaticDataToBeAuthenticated(
            afl: afl, record: { records[[$0, $1]] }, applicationInterchangeProfile: aip,
            staticDataAuthenticationTagList: oda.staticDataAuthenticationTagList)
        return try oda.iccPublicKey(issuerKey: issuerKey, staticData: staticData, pan: pan, on: date)
    }

    private static func verifyCDA(
        _ response: [UInt8], iccKey: RSAPublicKey, unpredictableNumber: [UInt8], pdolData: [UInt8], cdol1Data: [UInt8]
    ) throws -> CDADynamicData {
        try SignedDynamicApplicationData.verifyCDA(
            generateACResponse: try TLV.parseOne(response[...]), iccKey: iccKey, unpredictableNumber: unpredictableNumber,
            pdolData: pdolData, cdol1Data: cdol1Data)
    }

    private static func value(_ tag: EMV.Tag, in nodes: TLVNodeCollection) throws -> [UInt8] {
        guard let node = nodes.first(tag) else { throw Purchase.SetupError(description: "field 55 lacks \(tag)") }
        return Array(node.value)
    }
}
