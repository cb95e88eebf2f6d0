import Benchmark
import EMV

/// The issuer host's work per online authorisation: check the card's ARQC, answer with an ARPC.
///
/// Keys and data are one Visa card's (PAN 4761739001010119, PSN 01, issuer master key
/// 0123456789ABCDEFFEDCBA9876543210); the known answers were computed with pyemv 1.5.0 (`cvn.VisaCVN18`,
/// `cvn.VisaCVN10`).
func cryptogramBenchmarks() {
    // From the ICC master key: the CVN 18 session key (EMV common session key, R = ATC ‖ 00…) then the retail MAC
    // over the 10 common tags and the IAD.
    Benchmark("ARQC Visa CVN 18 (session key + MAC)") { (benchmark, input: VisaTransaction) in
        for _ in benchmark.scaledIterations {
            blackHole(try input.card.generateAC(input.data))
        }
    } setup: {
        let input = try visaCard(.visa18)
        try BenchmarkFixtures.expect(try input.card.generateAC(input.data), "B42ED08AC7015244", "ARQC")
        return input
    }

    // ARPC method 2 under the CVN 18 AC session key: session key derivation, then the MAC of
    // ARQC ‖ CSU (4 bytes kept).
    Benchmark("ARPC method 2, Visa CVN 18 (session key + MAC)") { (benchmark, input: VisaTransaction) in
        for _ in benchmark.scaledIterations {
            blackHole(
                try input.card.generateARPC(
                    arqc: input.arqc,
                    atc: input.data.applicationTransactionCounter,
                    cardStatusUpdate: input.cardStatusUpdate
                )
            )
        }
    } setup: {
        let input = try visaCard(.visa18)
        try BenchmarkFixtures.expect(
            try input.card.generateARPC(
                arqc: input.arqc,
                atc: input.data.applicationTransactionCounter,
                cardStatusUpdate: input.cardStatusUpdate
            ),
            "481CB0F3",
            "ARPC method 2"
        )
        return input
    }

    // ARPC method 1 under the ICC master key (Visa CVN 10 derives no session key): one TDES block.
    Benchmark("ARPC method 1, Visa CVN 10 (one TDES block)") { (benchmark, input: VisaTransaction) in
        for _ in benchmark.scaledIterations {
            blackHole(try input.card.generateARPC(arqc: input.arqc, responseCode: input.responseCode))
        }
    } setup: {
        let input = try visaCard(.visa10)
        try BenchmarkFixtures.expect(
            try input.card.generateARPC(arqc: input.arqc, responseCode: input.responseCode),
            "AEE65A0668A61C44",
            "ARPC method 1"
        )
        return input
    }
}

/// One card's keys and one transaction's data, with the answers the issuer sends back.
private struct VisaTransaction {
    var card: CardCryptograms
    var data: CryptogramData
    /// The card's ARQC for `data` under CVN 18.
    var arqc: [UInt8]
    /// Card status update for ARPC method 2.
    var cardStatusUpdate: [UInt8]
    /// Authorisation response code "00" (ASCII 30 30) for ARPC method 1.
    var responseCode: [UInt8]
}

private func visaCard(_ version: CryptogramVersion) throws -> VisaTransaction {
    let issuerMasterKey = try BenchmarkFixtures.bytes("0123456789ABCDEFFEDCBA9876543210")
    let card = try CardCryptograms(
        version: version,
        issuerMasterKeyAC: issuerMasterKey,
        issuerMasterKeySMI: issuerMasterKey,
        issuerMasterKeySMC: issuerMasterKey,
        pan: "4761739001010119",
        psn: "01"
    )
    let data = CryptogramData(
        amountAuthorized: try BenchmarkFixtures.bytes("000000001000"),
        amountOther: try BenchmarkFixtures.bytes("000000000000"),
        terminalCountryCode: try BenchmarkFixtures.bytes("0826"),
        terminalVerificationResults: try BenchmarkFixtures.bytes("0000000000"),
        transactionCurrencyCode: try BenchmarkFixtures.bytes("0826"),
        transactionDate: try BenchmarkFixtures.bytes("250506"),
        transactionType: try BenchmarkFixtures.bytes("00"),
        unpredictableNumber: try BenchmarkFixtures.bytes("12345678"),
        applicationInterchangeProfile: try BenchmarkFixtures.bytes("2000"),
        applicationTransactionCounter: try BenchmarkFixtures.bytes("03A4"),
        issuerApplicationData: try BenchmarkFixtures.bytes("06011203A00000")
    )
    return VisaTransaction(
        card: card,
        data: data,
        arqc: try BenchmarkFixtures.bytes("B42ED08AC7015244"),
        cardStatusUpdate: try BenchmarkFixtures.bytes("00820000"),
        responseCode: try BenchmarkFixtures.bytes("3030")
    )
}
