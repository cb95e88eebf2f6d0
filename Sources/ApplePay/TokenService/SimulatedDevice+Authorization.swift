public import X509

extension SimulatedDevice {
    /// The token maker a ``PaymentAuthorizationController`` calls when the user authorizes: the wallet card chosen on
    /// the sheet pays with its device account in `accounts` (keyed by ``SimulatedWallet/Card/id``), for the final
    /// amount, the request's merchant identifier and its `applicationData` — so a sheet, this device and a server's
    /// ``PaymentTokenDecryptor`` run the whole in-app flow.
    ///
    /// - Parameters:
    ///   - merchantCertificate: the merchant's payment processing certificate the token is encrypted to.
    ///   - accounts: the device account behind each wallet card.
    ///   - payloadKind: 3-D Secure (an online payment cryptogram) or EMV data.
    public func tokenMaker(
        merchantCertificate: Certificate, accounts: [String: DeviceAccount],
        payloadKind: PaymentPayload.DataType = .threeDSecure
    ) -> PaymentTokenMaker {
        let device = self
        return { payment in
            guard let account = accounts[payment.card.id] else {
                throw TokenServiceError(code: .noAccount, message: "the chosen wallet card has no device account")
            }
            let request = TokenRequest(
                merchantIdentifier: payment.request.merchantIdentifier, amount: payment.amount,
                applicationData: payment.request.applicationData, payloadKind: payloadKind)
            return try await device.authorize(request, with: account, merchantCertificate: merchantCertificate)
        }
    }
}
