import EMV

/// One operation of the batch interface: a pyemv or psec function, by its Python name, mapped onto the EMV API.
public struct BatchOperation: Sendable {
    /// The full Python name with its package, such as `pyemv.kd.derive_icc_mk_a`.
    public let name: String
    /// Reads the arguments, calls the EMV API, and returns what the Python function returns.
    typealias Run = @Sendable (inout BatchArguments) throws(BatchError) -> BatchValue
    /// This operation's implementation.
    let run: Run

    /// Makes an operation from its full Python name and its implementation.
    public init(
        _ name: String,
        _ run: @escaping @Sendable (inout BatchArguments) throws(BatchError) -> BatchValue
    ) {
        self.name = name
        self.run = run
    }
}

/// Calls the EMV API, turning its `CryptoError` into a `BatchError` with the same code and message.
@inline(__always)
func emv<Result>(_ body: () throws(CryptoError) -> Result) throws(BatchError) -> Result {
    do {
        return try body()
    } catch {
        throw BatchError(.crypto(error.code.description), error.message)
    }
}
