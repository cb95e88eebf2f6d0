/// What a ``ContactlessPaymentSession`` shows on the system's card emulation sheet, the modal that
/// ``ContactlessPaymentSession/startEmulation()`` puts up (Core NFC: `CardSession.startEmulation()` and its
/// `alertMessage`); the device's ``DeviceEnvironment/updateEmulationSheet`` draws it.
public enum EmulationSheetUpdate: Sendable, Hashable {
    /// Emulation started: the sheet comes up showing the session's alert message.
    case presented(alertMessage: String)
    /// The app set a new alert message with ``ContactlessPaymentSession/setAlertMessage(_:)`` while the sheet is up.
    case alertMessageChanged(String)
    /// The payment ended (completed, failed or cancelled): the sheet goes away.
    case dismissed
}
