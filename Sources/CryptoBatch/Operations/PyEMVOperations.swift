import EMV

/// The pyemv 1.5.0 functions, by their Python names and parameter names.
func pyemvOperations() -> [BatchOperation] {
    pyemvKDOperations() + pyemvACOperations()
        + CryptogramVersion.allCases.flatMap(cvnOperations)
        + pyemvCVVOperations() + pyemvMACOperations() + pyemvToolsOperations()
}

/// pyemv.kd: ICC master keys (options A and B) and session keys.
private func pyemvKDOperations() -> [BatchOperation] {
    [
        BatchOperation("pyemv.kd.derive_icc_mk_a") { args throws(BatchError) in try iccMasterKey(&args, option: .a) },
        BatchOperation("pyemv.kd.derive_icc_mk_b") { args throws(BatchError) in try iccMasterKey(&args, option: .b) },
        BatchOperation("pyemv.kd.derive_common_sk") { args throws(BatchError) in
            let masterKey = try args.bytes("icc_mk")
            let r = try args.bytes("r")
            return .bytes(
                try emv { () throws(CryptoError) in
                    try SessionKey.common(iccMasterKey: masterKey, diversification: r)
                }
            )
        },
        BatchOperation("pyemv.kd.derive_visa_sm_sk") { args throws(BatchError) in
            let masterKey = try args.bytes("icc_mk")
            let atc = try args.bytes("atc")
            return .bytes(
                try emv { () throws(CryptoError) in
                    try SessionKey.visaSecureMessaging(iccMasterKey: masterKey, atc: atc)
                }
            )
        },
        BatchOperation("pyemv.kd.derive_emv2000_tree_sk") { args throws(BatchError) in
            let masterKey = try args.bytes("icc_mk")
            let atc = try args.bytes("atc")
            let height = try args.optionalInt("height") ?? 8
            let branchFactor = try args.optionalInt("branch_factor") ?? 4
            // An absent IV is 16 zero bytes, as in pyemv.
            let iv = try args.optionalBytes("iv") ?? [UInt8](repeating: 0, count: 16)
            return .bytes(
                try emv { () throws(CryptoError) in
                    try SessionKey.emv2000Tree(
                        iccMasterKey: masterKey, atc: atc, height: height, branchFactor: branchFactor, iv: iv
                    )
                }
            )
        },
    ]
}

/// `derive_icc_mk_a(iss_mk, pan, psn=None)` and `derive_icc_mk_b`.
private func iccMasterKey(_ args: inout BatchArguments, option: KeyDerivation.Option) throws(BatchError) -> BatchValue {
    let issuerKey = try args.bytes("iss_mk")
    let pan = try args.string("pan")
    let psn = try args.optionalString("psn")
    return .bytes(
        try emv { () throws(CryptoError) in
            try KeyDerivation.iccMasterKey(option: option, issuerMasterKey: issuerKey, pan: pan, psn: psn)
        }
    )
}

/// pyemv.ac: application cryptograms and ARPC methods 1 and 2.
private func pyemvACOperations() -> [BatchOperation] {
    [
        BatchOperation("pyemv.ac.generate_ac") { args throws(BatchError) in
            let sessionKey = try args.bytes("sk_ac")
            let data = try args.bytes("data")
            let padding: ApplicationCryptogram.Padding
            switch try args.optionalString("padding_type") {
            case nil, "EMV": padding = .emv
            case "VISA": padding = .visa
            default: throw BatchError(.invalidArgument, "`padding_type` must be VISA or EMV")
            }
            let length = try args.optionalInt("length") ?? 8
            return .bytes(
                try emv { () throws(CryptoError) in
                    try ApplicationCryptogram.generate(
                        sessionKey: sessionKey, data: data, padding: padding, length: length)
                }
            )
        },
        BatchOperation("pyemv.ac.generate_arpc_1") { args throws(BatchError) in
            let sessionKey = try args.bytes("sk_ac")
            let arqc = try args.bytes("arqc")
            let responseCode = try args.bytes("arpc_rc")
            return .bytes(
                try emv { () throws(CryptoError) in
                    try ARPC.method1(sessionKey: sessionKey, arqc: arqc, responseCode: responseCode)
                }
            )
        },
        BatchOperation("pyemv.ac.generate_arpc_2") { args throws(BatchError) in
            let sessionKey = try args.bytes("sk_ac")
            let arqc = try args.bytes("arqc")
            let csu = try args.bytes("csu")
            let proprietary = try args.optionalBytes("prop_auth_data")
            return .bytes(
                try emv { () throws(CryptoError) in
                    try ARPC.method2(
                        sessionKey: sessionKey, arqc: arqc, cardStatusUpdate: csu,
                        proprietaryAuthenticationData: proprietary
                    )
                }
            )
        },
    ]
}

/// pyemv.cvv: Mastercard's CVC3, returned as pyemv does: the number's decimal text.
private func pyemvCVVOperations() -> [BatchOperation] {
    [
        BatchOperation("pyemv.cvv.generate_cvc3") { args throws(BatchError) in
            let key = try args.bytes("icc_cvc3")
            let trackTemplate = try args.bytes("track_template")
            let atc = try args.bytes("atc")
            let un = try args.bytes("un")
            let cvc3 = try emv { () throws(CryptoError) in
                try CVC3.generate(iccKey: key, trackTemplate: trackTemplate, atc: atc, unpredictableNumber: un)
            }
            return .string(String(cvc3))
        }
    ]
}

/// pyemv.mac: the retail MAC and the padding methods.
private func pyemvMACOperations() -> [BatchOperation] {
    [
        BatchOperation("pyemv.mac.mac_iso9797_3") { args throws(BatchError) in
            try retailMAC(&args, paddingMethods: 1...2)
        },
        BatchOperation("pyemv.mac.pad_iso9797_1") { args throws(BatchError) in try pad(&args, .method1) },
        BatchOperation("pyemv.mac.pad_iso9797_2") { args throws(BatchError) in try pad(&args, .method2) },
    ]
}

/// pyemv.tools: TDES, check digits and parity.
private func pyemvToolsOperations() -> [BatchOperation] {
    [
        BatchOperation("pyemv.tools.key_check_digits") { args throws(BatchError) in try checkValue(&args) },
        BatchOperation("pyemv.tools.adjust_key_parity") { args throws(BatchError) in try keyParity(&args) },
        BatchOperation("pyemv.tools.encrypt_tdes_cbc") { args throws(BatchError) in try tdes(&args, .encryptCBC) },
        BatchOperation("pyemv.tools.encrypt_tdes_ecb") { args throws(BatchError) in try tdes(&args, .encryptECB) },
    ]
}
