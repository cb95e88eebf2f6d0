extension BatchOperationTable {
    /// Every operation: the pyemv 1.5.0 and psec 1.3.0 functions that the EMV module also implements.
    public static let standard = BatchOperationTable(pyemvOperations + psecOperations)
}
