extension CryptoError {
    /// Throws ``Code/invalidFieldLength`` unless `field` has exactly `length` bytes; the message names the field
    /// and the lengths only, never its bytes. (`name` is a `StaticString`: a `String` argument cost a release on
    /// every call, on the cryptogram paths.)
    static func checkLength(_ field: some Collection<UInt8>, _ length: Int, _ name: StaticString) throws(CryptoError) {
        guard field.count == length else {
            throw CryptoError(.invalidFieldLength, "\(name) must be \(length) bytes, got \(field.count)")
        }
    }
}
