public import EMV

/// An entry of the candidate list (EMV Contactless Book B, 3.3.2.5): a card application matched to a supported
/// application and the kernel that will process it.
public struct Candidate: Sendable, Hashable, CustomStringConvertible {
    /// The card's ADF name (4F in the PPSE directory), which SELECT uses.
    public var adfName: [UInt8]
    /// The card's Application Label (50), if any.
    public var label: String?
    /// The card's Application Priority Indicator (87) bits 4-1: 1 is highest; nil when absent or zero.
    public var priority: UInt8?
    /// The kernel that processes it.
    public var kernel: Kernel
    /// The reader's entry it matched.
    public var application: SupportedApplication

    /// Creates a candidate.
    public init(adfName: [UInt8], label: String?, priority: UInt8?, kernel: Kernel, application: SupportedApplication) {
        self.adfName = adfName
        self.label = label
        self.priority = priority
        self.kernel = kernel
        self.application = application
    }

    /// `A0000000031010 "VISA DEBIT" priority 1, kernel C-3`.
    public var description: String {
        let name = label.map { " \"\($0)\"" } ?? ""
        let rank = priority.map { " priority \($0)," } ?? ""
        return "\(adfName.hexString)\(name)\(rank) kernel \(kernel)"
    }
}
