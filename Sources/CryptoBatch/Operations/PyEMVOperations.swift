import EMV

/// The pyemv 1.5.0 functions, by their Python names and parameter names.
let pyemvOperations: [BatchOperation] = []
