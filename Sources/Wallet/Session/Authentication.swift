/// The session's request for the cardholder's authentication (Thales: the value of `authenticationRequired`):
/// ``proceed()`` shows the device's biometric or passcode prompt, ``cancel()`` ends the session with `cancelled`.
public struct Authentication: Sendable {
    let session: ContactlessPaymentSession

    /// Authenticates the cardholder now; the session continues with `authenticationCompleted` or ends with the
    /// authentication's error.
    public func proceed() async { await session.authenticate() }

    /// Ends the session with ``ContactlessPaymentSessionError/Code/cancelled``.
    public func cancel() async { await session.cancel() }
}
