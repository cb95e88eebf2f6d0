public import EMV

extension AuthorizationRequest {
    /// The 0100 of a remote token payment (Apple Pay in-app or on the web): ``card`` holds the device account
    /// number (DPAN) and its expiry; field 22 is `810` (e-commerce) and field 48 carries the online payment
    /// cryptogram and ECI (``TokenPaymentData``); no track 2, PAN sequence number, PIN block or field 55.
    ///
    /// ``reversal(of:transmissionDate:)`` reverses it like a card read's 0100 (the issuer maps the DPAN back to
    /// the funding account).
    /// - Throws: ``ISO8583Error/Code/invalidValue`` as ``message()``, or when the cryptogram does not fit field 48.
    public func tokenMessage(_ token: TokenPaymentData) throws(ISO8583Error) -> ISO8583Message {
        var message = try message()
        for field: ISO8583Field in [.cardSequenceNumber, .track2, .pinBlock, .iccData] { message[field] = nil }
        do {
            try message.setTokenPaymentData(token)
        } catch {
            throw ISO8583Error(
                code: .invalidValue, field: ISO8583Field.additionalData.rawValue,
                message: "field 48: the token payment data does not fit")
        }
        return message
    }

    /// A token payment's card data: the DPAN and its expiry, nothing read from a chip.
    public static func tokenCard(dpan: PAN, expiry: ExpiryDate?) -> CardAuthorizationData {
        CardAuthorizationData(
            mode: .emv, iccData: [], pan: dpan, panSequenceNumber: nil, expiry: expiry, track2: nil)
    }
}
