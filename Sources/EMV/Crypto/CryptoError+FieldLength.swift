extension CryptoError {
    /// Throws ``Code/invalidFieldLength`` unless `field` has exactly `length` bytes; the message names the field
    /// and the lengths only, never its bytes.
    static func checkLength(_ field: some Collection<UInt8>, _ length: Int, _ name: String) throws(CryptoError) {
        guard field.count == length else {
            throw CryptoError(.invalidFieldLength, "\(name) must be \(length) bytes, got \(field.count)")
        }
    }
}
