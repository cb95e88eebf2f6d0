/// The session's request for the cardholder's authentication (Thales: the value of `authenticationRequired`):
/// ``proceed()`` shows the device's biometric or passcode prompt, ``cancel()`` ends the payment with `cancelled`.
///
/// It belongs to the payment that asked: once that payment has ended, both do nothing.
public struct Authentication: Sendable {
    let session: ContactlessPaymentSession
    let paymentID: Int

    /// Authenticates the cardholder now; the payment continues with `authenticationCompleted` or ends with the
    /// authentication's error.
    public func proceed() async { await session.authenticate(paymentID: paymentID) }

    /// Ends the payment with ``ContactlessPaymentSessionError/Code/cancelled``.
    public func cancel() async { await session.cancel(paymentID: paymentID) }
}
