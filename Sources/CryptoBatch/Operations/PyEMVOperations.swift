import EMV

/// The pyemv 1.5.0 functions, by their Python names and parameter names.
let pyemvOperations: [BatchOperation] = pyemvToolsOperations + pyemvMACOperations

/// pyemv.tools: TDES, check digits and parity.
private let pyemvToolsOperations: [BatchOperation] = [
    BatchOperation("pyemv.tools.key_check_digits") { args throws(BatchError) in try checkValue(&args) },
    BatchOperation("pyemv.tools.adjust_key_parity") { args throws(BatchError) in try keyParity(&args) },
    BatchOperation("pyemv.tools.encrypt_tdes_cbc") { args throws(BatchError) in try tdes(&args, .encryptCBC) },
    BatchOperation("pyemv.tools.encrypt_tdes_ecb") { args throws(BatchError) in try tdes(&args, .encryptECB) },
]

/// pyemv.mac: the retail MAC and the padding methods.
private let pyemvMACOperations: [BatchOperation] = [
    BatchOperation("pyemv.mac.mac_iso9797_3") { args throws(BatchError) in try retailMAC(&args, paddingMethods: 1...2) },
    BatchOperation("pyemv.mac.pad_iso9797_1") { args throws(BatchError) in try pad(&args, .method1) },
    BatchOperation("pyemv.mac.pad_iso9797_2") { args throws(BatchError) in try pad(&args, .method2) },
]
