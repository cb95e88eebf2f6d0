import EMV

/// The psec 1.3.0 functions, by their Python names and parameter names.
func psecOperations() -> [BatchOperation] {
    psecDESOperations() + psecMACOperations() + psecPINBlockOperations()
}

/// psec.des: TDES ECB/CBC, check values, parity and key variants.
private func psecDESOperations() -> [BatchOperation] {
    [
        BatchOperation("psec.des.encrypt_tdes_ecb") { args throws(BatchError) in try tdes(&args, .encryptECB) },
        BatchOperation("psec.des.decrypt_tdes_ecb") { args throws(BatchError) in try tdes(&args, .decryptECB) },
        BatchOperation("psec.des.encrypt_tdes_cbc") { args throws(BatchError) in try tdes(&args, .encryptCBC) },
        BatchOperation("psec.des.decrypt_tdes_cbc") { args throws(BatchError) in try tdes(&args, .decryptCBC) },
        BatchOperation("psec.des.generate_kcv") { args throws(BatchError) in try checkValue(&args) },
        BatchOperation("psec.des.adjust_key_parity") { args throws(BatchError) in try keyParity(&args) },
        BatchOperation("psec.des.apply_key_variant") { args throws(BatchError) in
            let key = try args.bytes("key")
            let variant = try args.int("variant")
            return .bytes(try emv { () throws(CryptoError) in try key.applyingKeyVariant(variant) })
        },
    ]
}

/// psec.mac: CBC-MAC (DES or AES), retail MAC and the padding methods.
private func psecMACOperations() -> [BatchOperation] {
    [
        BatchOperation("psec.mac.generate_cbc_mac") { args throws(BatchError) in
            let key = try args.bytes("key")
            let data = try args.bytes("data")
            let padding = try args.padding("padding", methods: 1...3)
            let length = try args.optionalInt("length")
            switch try args.optionalString("algorithm") {
            case nil, "DES":
                let key = try emv { () throws(CryptoError) in try TDESKey(key) }
                return .bytes(
                    try emv { () throws(CryptoError) in
                        try ISO9797.mac(
                            algorithm: .algorithm1, key: key, data: data, padding: padding, length: length ?? 8)
                    }
                )
            case "AES":
                return .bytes(
                    try emv { () throws(CryptoError) in
                        try ISO9797.aesCBCMAC(key: key, data: data, padding: padding, length: length ?? 16)
                    }
                )
            default:
                throw BatchError(.invalidArgument, "`algorithm` must be DES or AES")
            }
        },
        BatchOperation("psec.mac.generate_retail_mac") { args throws(BatchError) in
            try retailMAC(&args, paddingMethods: 1...3)
        },
        BatchOperation("psec.mac.pad_iso_1") { args throws(BatchError) in try pad(&args, .method1) },
        BatchOperation("psec.mac.pad_iso_2") { args throws(BatchError) in try pad(&args, .method2) },
        BatchOperation("psec.mac.pad_iso_3") { args throws(BatchError) in try pad(&args, .method3) },
    ]
}

/// psec.pinblock: ISO 9564 formats 0, 2, 3 and 4.
private func psecPINBlockOperations() -> [BatchOperation] {
    [
        BatchOperation("psec.pinblock.encode_pinblock_iso_0") { args throws(BatchError) in
            let pin = try args.string("pin")
            let pan = try args.string("pan")
            return .bytes(try emv { () throws(CryptoError) in try PINBlock.encodeISO0(pin: pin, pan: pan) })
        },
        BatchOperation("psec.pinblock.decode_pinblock_iso_0") { args throws(BatchError) in
            let block = try args.bytes("pinblock")
            let pan = try args.string("pan")
            return .string(try emv { () throws(CryptoError) in try PINBlock.decodeISO0(block, pan: pan) })
        },
        BatchOperation("psec.pinblock.encode_pinblock_iso_2") { args throws(BatchError) in
            let pin = try args.string("pin")
            return .bytes(try emv { () throws(CryptoError) in try PINBlock.encodeISO2(pin: pin) })
        },
        BatchOperation("psec.pinblock.decode_pinblock_iso_2") { args throws(BatchError) in
            let block = try args.bytes("pinblock")
            return .string(try emv { () throws(CryptoError) in try PINBlock.decodeISO2(block) })
        },
        BatchOperation("psec.pinblock.encode_pinblock_iso_3") { args throws(BatchError) in
            let pin = try args.string("pin")
            let pan = try args.string("pan")
            var random = args.random
            return .bytes(
                try emv { () throws(CryptoError) in try PINBlock.encodeISO3(pin: pin, pan: pan, using: &random) }
            )
        },
        BatchOperation("psec.pinblock.decode_pinblock_iso_3") { args throws(BatchError) in
            let block = try args.bytes("pinblock")
            let pan = try args.string("pan")
            return .string(try emv { () throws(CryptoError) in try PINBlock.decodeISO3(block, pan: pan) })
        },
        BatchOperation("psec.pinblock.encode_pin_field_iso_4") { args throws(BatchError) in
            let pin = try args.string("pin")
            var random = args.random
            return .bytes(
                try emv { () throws(CryptoError) in try PINBlock.encodeISO4PINField(pin: pin, using: &random) }
            )
        },
        BatchOperation("psec.pinblock.encode_pan_field_iso_4") { args throws(BatchError) in
            let pan = try args.string("pan")
            return .bytes(try emv { () throws(CryptoError) in try PINBlock.encodeISO4PANField(pan: pan) })
        },
        BatchOperation("psec.pinblock.decode_pin_field_iso_4") { args throws(BatchError) in
            let field = try args.bytes("pin_field")
            return .string(try emv { () throws(CryptoError) in try PINBlock.decodeISO4PINField(field) })
        },
        BatchOperation("psec.pinblock.encipher_pinblock_iso_4") { args throws(BatchError) in
            let key = try args.bytes("key")
            let pin = try args.string("pin")
            let pan = try args.string("pan")
            var random = args.random
            return .bytes(
                try emv { () throws(CryptoError) in
                    try PINBlock.encipherISO4(pin: pin, pan: pan, key: key, using: &random)
                }
            )
        },
        BatchOperation("psec.pinblock.decipher_pinblock_iso_4") { args throws(BatchError) in
            let key = try args.bytes("key")
            let block = try args.bytes("pin_block")
            let pan = try args.string("pan")
            return .string(try emv { () throws(CryptoError) in try PINBlock.decipherISO4(block, pan: pan, key: key) })
        },
    ]
}
