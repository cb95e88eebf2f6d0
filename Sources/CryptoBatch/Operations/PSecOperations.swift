import EMV

/// The psec 1.3.0 functions, by their Python names and parameter names.
let psecOperations: [BatchOperation] = []
