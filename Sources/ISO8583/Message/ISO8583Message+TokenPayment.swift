extension ISO8583Message {
    /// The token payment data of field 48; nil when the field is absent or holds no cryptogram.
    public var tokenPaymentData: TokenPaymentData? {
        self[.additionalData]?.text.flatMap(TokenPaymentData.init(field48:))
    }

    /// Whether this is a remote token payment: field 22 is ``TokenPaymentData/posEntryMode``'s `81x`, and field 48
    /// is present.
    public var isTokenPayment: Bool {
        self[.posEntryMode]?.text?.hasPrefix("81") == true && self[.additionalData] != nil
    }

    /// Sets fields 22 and 48 for a token payment.
    /// - Throws: ``ISO8583Error/Code/lengthExceedsMaximum`` when the data does not fit field 48's subelements.
    public mutating func setTokenPaymentData(_ data: TokenPaymentData) throws(ISO8583Error) {
        guard let field48 = data.field48 else {
            throw ISO8583Error(
                code: .lengthExceedsMaximum, field: 48, message: "token payment data does not fit field 48's subelements")
        }
        self[.posEntryMode] = .text(TokenPaymentData.posEntryMode)
        self[.additionalData] = .text(field48)
    }
}
