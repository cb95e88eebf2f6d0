/// Key check values, as printed on key components and in key ceremonies.
extension TDESKey {
    /// The key check value: the first `length` bytes (at most 8) of the encryption of a zero block.
    ///
    /// Same as pyemv `tools.key_check_digits` and psec `des.generate_kcv`, whose default length is 2;
    /// EMV and most HSMs print 3 bytes.
    public func checkValue(length: Int = 3) -> [UInt8] {
        BigEndianBlock.bytes(encrypt(block: 0), prefix: length)
    }
}
