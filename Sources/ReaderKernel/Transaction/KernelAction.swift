public import EMV

/// What the kernel wants next: a command sent to the card, or the end of the transaction.
public enum KernelAction: Sendable, Hashable {
    /// Send this command and pass the response to ``KernelTransaction/receive(_:)``.
    case transmit(CommandAPDU)
    /// The transaction is over.
    case complete(Outcome)
}
