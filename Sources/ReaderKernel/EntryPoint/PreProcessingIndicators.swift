public import EMV

/// The result of entry point pre-processing for one kernel (EMV Contactless Book B, 3.1.1): the amount against that
/// kernel's limits in the transaction currency.
public struct PreProcessingIndicators: Sendable, Hashable, CustomStringConvertible {
    /// The kernel.
    public var kernel: Kernel
    /// The limits compared against; nil when none are configured for the currency (nothing is limited then).
    public var limits: ReaderLimits?
    /// At or over the contactless transaction limit: the kernel may not be used.
    public var contactlessApplicationNotAllowed: Bool
    /// At or over the CVM required limit.
    public var cvmRequiredLimitExceeded: Bool
    /// Over the floor limit: the transaction must go online.
    public var floorLimitExceeded: Bool
    /// The amount is zero (Book B 3.1.1.5, Zero Amount Allowed): a zero-amount transaction — a card verification —
    /// goes online, since there is nothing to approve offline.
    public var zeroAmount: Bool

    /// Compares `amount` with `limits` (Book B: transaction and CVM limits at or over, floor limit over).
    public init(kernel: Kernel, amount: Amount, limits: ReaderLimits?) {
        self.kernel = kernel
        self.limits = limits
        let units = amount.minorUnits
        contactlessApplicationNotAllowed = limits?.contactlessTransactionLimit.map { units >= $0 } ?? false
        cvmRequiredLimitExceeded = limits?.cvmRequiredLimit.map { units >= $0 } ?? false
        floorLimitExceeded = limits?.floorLimit.map { units > $0 } ?? false
        zeroAmount = units == 0
    }

    /// `C-3 (EUR): contactless allowed, CVM required, floor limit exceeded`.
    public var description: String {
        var parts = [contactlessApplicationNotAllowed ? "contactless not allowed" : "contactless allowed"]
        parts.append(cvmRequiredLimitExceeded ? "CVM required" : "under CVM limit")
        parts.append(floorLimitExceeded ? "floor limit exceeded" : "within floor limit")
        let currency = limits.map { " (\($0.currency.alphabeticCode))" } ?? " (no limits configured)"
        return "\(kernel)\(currency): " + parts.joined(separator: ", ")
    }
}
