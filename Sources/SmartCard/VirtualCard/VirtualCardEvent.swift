/// Something that happened on a ``VirtualCardLink``: the connection to vpcd and the reader's power changes.
///
/// Events carry no card data, so a command line can print each as one line (``description``).
public enum VirtualCardEvent: Hashable, Sendable, CustomStringConvertible {
    /// Connected to vpcd: pcscd now reports a card in the virtual reader.
    case connected(VPCDEndpoint)
    /// vpcd could not be reached on the `attempt`th try in a row (from 1); the link tries again after `retryAfter`.
    case connectionFailed(VPCDError, attempt: Int, retryAfter: Duration)
    /// The connection ended (vpcd closed it, or it broke); the card was removed and the link reconnects.
    case disconnected(VPCDError)
    /// The reader powered the card.
    case poweredOn
    /// The reader cut the card's power.
    case poweredOff
    /// The reader reset the card.
    case reset
    /// The reader asked for the ATR and got it; vpcd asks several times a second, as its card-presence poll.
    case answerToResetSent
    /// A frame was ignored, or a command answered with an error status word (see the error's code).
    case frameRejected(VPCDError)
    /// The link stopped (cancelled or shut down gracefully) and closed its connection.
    case stopped

    /// One line for a log, e.g. `connected to vpcd at 127.0.0.1:35963`.
    public var description: String {
        switch self {
        case .connected(let endpoint): "connected to vpcd at \(endpoint): card inserted"
        case .connectionFailed(let error, let attempt, let delay):
            "vpcd not reachable (\(error.message)); attempt \(attempt), retrying in \(Self.format(delay))"
        case .disconnected(let error): "disconnected from vpcd (\(error.message)): card removed"
        case .poweredOn: "power on"
        case .poweredOff: "power off"
        case .reset: "reset"
        case .answerToResetSent: "ATR sent"
        case .frameRejected(let error): "frame rejected: \(error.message)"
        case .stopped: "stopped: card removed"
        }
    }

    private static func format(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds < 1000 ? "\(milliseconds) ms" : "\(Double(milliseconds) / 1000) s"
    }
}
