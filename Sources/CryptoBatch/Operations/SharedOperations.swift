import EMV

// Operations that pyemv and psec both provide, under their own names.

/// A TDES mode of operation, by the psec/pyemv function that runs it.
enum TDESMode {
    case encryptECB, decryptECB, encryptCBC, decryptCBC
}

/// `encrypt_tdes_ecb(key, data)`, `encrypt_tdes_cbc(key, iv, data)` and their decrypting twins.
func tdes(_ args: inout BatchArguments, _ mode: TDESMode) throws(BatchError) -> BatchValue {
    let key = try args.desKey("key")
    switch mode {
    case .encryptECB, .decryptECB:
        let data = try args.bytes("data")
        return .bytes(
            try emv { () throws(CryptoError) in
                mode == .encryptECB ? try key.encryptECB(data) : try key.decryptECB(data)
            }
        )
    case .encryptCBC, .decryptCBC:
        let iv = try args.bytes("iv")
        let data = try args.bytes("data")
        return .bytes(
            try emv { () throws(CryptoError) in
                mode == .encryptCBC ? try key.encryptCBC(data, iv: iv) : try key.decryptCBC(data, iv: iv)
            }
        )
    }
}

/// `key_check_digits(key, length=2)` / `generate_kcv(key, length=2)`.
func checkValue(_ args: inout BatchArguments) throws(BatchError) -> BatchValue {
    let key = try args.desKey("key")
    return .bytes(key.checkValue(length: min(try args.prefixLength("length", default: 2), 8)))
}

/// `adjust_key_parity(key)`: any number of bytes.
func keyParity(_ args: inout BatchArguments) throws(BatchError) -> BatchValue {
    .bytes(try args.bytes("key").adjustedToOddParity())
}

/// The retail MAC with two keys (pyemv `mac.mac_iso9797_3`, psec `mac.generate_retail_mac`).
func retailMAC(_ args: inout BatchArguments, paddingMethods: ClosedRange<Int>) throws(BatchError) -> BatchValue {
    let key1 = try args.desKey("key1")
    let key2 = try args.desKey("key2")
    let data = try args.bytes("data")
    let padding = try args.padding("padding", methods: paddingMethods)
    let length = try args.optionalInt("length") ?? 8
    return .bytes(
        try emv { () throws(CryptoError) in
            try ISO9797.retailMAC(key1: key1, key2: key2, data: data, padding: padding, length: length)
        }
    )
}

/// Pads `data` to `block_size` (pyemv `mac.pad_iso9797_*`, psec `mac.pad_iso_*`).
func pad(_ args: inout BatchArguments, _ padding: ISO9797.Padding) throws(BatchError) -> BatchValue {
    let data = try args.bytes("data")
    let blockSize = try args.blockSize("block_size")
    // Method 3 starts with the data's length in bits as one block; psec refuses a length that does not fit.
    if padding == .method3, blockSize < 8, data.count * 8 >= 1 << (8 * blockSize) {
        throw BatchError(.invalidArgument, "the data's bit length does not fit in one \(blockSize)-byte block")
    }
    return .bytes(ISO9797.pad(data, padding, blockSize: blockSize))
}
