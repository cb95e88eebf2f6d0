import EMV

/// `pyemv.cvn.<Class>.generate_ac` and `.generate_arpc` for one cryptogram version: the request carries the
/// constructor's arguments (`iss_mk_ac`, `iss_mk_smi`, `iss_mk_smc`, `pan`, `psn`) and the method's.
func cvnOperations(_ version: CryptogramVersion) -> [BatchOperation] {
    let prefix = "pyemv.cvn.\(version.pyemvClassName)"
    return [
        BatchOperation("\(prefix).generate_ac") { args throws(BatchError) in
            let card = try cardCryptograms(&args, version)
            let input = try cryptogramInput(&args, version)
            let cryptogram = try emv { () throws(CryptoError) in
                try card.generateAC(
                    concatenatedData: input.data,
                    atc: input.data[input.atc],
                    unpredictableNumber: input.data[input.unpredictableNumber]
                )
            }
            return .bytes(cryptogram)
        },
        BatchOperation("\(prefix).generate_arpc") { args throws(BatchError) in
            let card = try cardCryptograms(&args, version)
            let arqc = try args.bytes("tag_9f26")
            switch (version.arpcMethod, version.arpcSessionKeyDerivation) {
            case (.method2, _):
                let atc = try args.bytes("tag_9f36")
                let csu = try args.bytes("csu")
                let proprietary = try args.optionalBytes("proprietary_auth_data")
                let arpc = try emv { () throws(CryptoError) in
                    try card.generateARPC(
                        arqc: arqc, atc: atc, cardStatusUpdate: csu, proprietaryAuthenticationData: proprietary
                    )
                }
                return .bytes(arpc)
            case (.method1, let derivation):
                let un = derivation == .mastercard ? try args.bytes("tag_9f37") : []
                let atc = derivation == .iccMasterKey ? [] : try args.bytes("tag_9f36")
                let responseCode = try args.bytes("arpc_rc")
                let arpc = try emv { () throws(CryptoError) in
                    try card.generateARPC(arqc: arqc, atc: atc, unpredictableNumber: un, responseCode: responseCode)
                }
                return .bytes(arpc)
            }
        },
    ]
}

/// The card of the pyemv constructor `Class(iss_mk_ac, iss_mk_smi, iss_mk_smc, pan, psn=None)`.
private func cardCryptograms(
    _ args: inout BatchArguments,
    _ version: CryptogramVersion
) throws(BatchError) -> CardCryptograms {
    let issuerKeyAC = try args.bytes("iss_mk_ac")
    let issuerKeySMI = try args.bytes("iss_mk_smi")
    let issuerKeySMC = try args.bytes("iss_mk_smc")
    let pan = try args.string("pan")
    let psn = try args.optionalString("psn")
    return try emv { () throws(CryptoError) in
        try CardCryptograms(
            version: version,
            issuerMasterKeyAC: issuerKeyAC,
            issuerMasterKeySMI: issuerKeySMI,
            issuerMasterKeySMC: issuerKeySMC,
            pan: pan,
            psn: psn
        )
    }
}

/// The data elements of `generate_ac` — the ten common tags, then the version's CVR, counters or IAD — decoded
/// straight into one buffer in the order `CryptogramData.bytes(for:)` concatenates them, with where the ATC and
/// UN landed. (A `CryptogramData` of thirteen arrays cost a retain and release per field on every line.)
private func cryptogramInput(
    _ args: inout BatchArguments,
    _ version: CryptogramVersion
) throws(BatchError) -> (data: [UInt8], atc: Range<Int>, unpredictableNumber: Range<Int>) {
    var data = args.concatenation()
    _ = try args.appendBytes("tag_9f02", to: &data)
    _ = try args.appendBytes("tag_9f03", to: &data)
    _ = try args.appendBytes("tag_9f1a", to: &data)
    _ = try args.appendBytes("tag_95", to: &data)
    _ = try args.appendBytes("tag_5f2a", to: &data)
    _ = try args.appendBytes("tag_9a", to: &data)
    _ = try args.appendBytes("tag_9c", to: &data)
    let unpredictableNumber = try args.appendBytes("tag_9f37", to: &data)
    _ = try args.appendBytes("tag_82", to: &data)
    let atc = try args.appendBytes("tag_9f36", to: &data)
    switch version.trailingData {
    case .cardVerificationResults:
        _ = try args.appendBytes("cvr", to: &data)
    case .cardVerificationResultsAndCounters:
        _ = try args.appendBytes("cvr", to: &data)
        _ = try args.appendBytes("counters", to: &data)
    case .issuerApplicationData:
        _ = try args.appendBytes("tag_9f10", to: &data)
    }
    return (data.bytes, atc, unpredictableNumber)
}

extension CryptogramVersion {
    /// The name of the pyemv 1.5.0 class for this version.
    var pyemvClassName: String {
        switch self {
        case .visa10: "VisaCVN10"
        case .visa18: "VisaCVN18"
        case .visa22: "VisaCVN22"
        case .interac133: "InteracCVN133"
        case .mastercard16: "MasterCardCVN16"
        case .mastercard17: "MasterCardCVN17"
        case .mastercard20: "MasterCardCVN20"
        case .mastercard21: "MasterCardCVN21"
        }
    }
}
