extension BatchOperationTable {
    /// Every operation: the pyemv 1.5.0 and psec 1.3.0 functions that the EMV module also implements.
    ///
    /// A new table on every use, closures included: a worker thread calls its table's closures on every line, and
    /// each call retains and releases the closure's context and the table's storage, so a table shared by two
    /// threads had them fight over those reference counts (a third of a light request's time on two cores).
    public static var standard: BatchOperationTable { BatchOperationTable(pyemvOperations() + psecOperations()) }
}
