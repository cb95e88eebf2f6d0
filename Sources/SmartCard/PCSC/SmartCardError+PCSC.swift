extension SmartCardError {
    /// How to get the PC/SC library on the platforms `tap` runs on.
    static let installHint =
        "install it with `apt-get install libpcsclite1 pcscd` (Debian, Ubuntu) or `dnf install pcsc-lite` (Fedora)"

    /// How to start the resource manager.
    static let startHint =
        "start it with `systemctl start pcscd.socket` (or `pcscd -f &` without systemd); if it runs on a private "
        + "socket, set PCSCLITE_CSOCK_NAME to that socket here too"

    /// The error for a failed PC/SC call: `operation` names the call (e.g. `SCardConnect`), `subject` what it was
    /// about (e.g. the reader, or `GENERATE AC`), never data.
    init(pcsc status: PCSCStatus, operation: String, subject: String? = nil, file: String = #fileID, line: UInt = #line)
    {
        let about = subject.map { " (\($0))" } ?? ""
        let code: Code
        let message: String
        switch status {
        case .noService, .serviceStopped, .communicationError:
            code = .serviceUnavailable
            message = "pcscd is not running (\(operation) returned \(status)): \(Self.startHint)"
        case .noReadersAvailable:
            code = .noReaders
            message = "no PC/SC reader is connected (\(operation) returned \(status))"
        case .unknownReader, .readerUnavailable:
            code = .unknownReader
            message = "\(operation)\(about): no such reader (\(status))"
        case .timeout:
            code = .timedOut
            message = "\(operation)\(about) timed out (\(status))"
        case .removedCard, .noSmartCard, .unpoweredCard, .resetCard:
            code = .cardRemoved
            message = "the card left the reader during \(operation)\(about) (\(status))"
        case .cancelled:
            code = .cancelled
            message = "\(operation)\(about) was cancelled (\(status))"
        case .communicationDataLost, .unresponsiveCard, .notReady, .notTransacted:
            code = .transmissionFailed
            message = "\(operation)\(about) failed: \(status)"
        default:
            code = .readerFailed
            message = "\(operation)\(about) failed: \(status)"
        }
        self.init(code: code, message: message, file: file, line: line)
    }
}
