/// What offline data authentication found: fDDA for Kernel 3, CDA for Kernel 2.
public enum OfflineDataAuthentication: Sendable, Hashable, CustomStringConvertible {
    /// The methods the kernels use.
    public enum Method: String, Sendable, Hashable {
        /// Fast DDA: the card signs the GET PROCESSING OPTIONS data (Kernel 3).
        case fDDA
        /// Combined DDA/AC generation: the card signs the GENERATE AC response (Kernel 2).
        case cda

        /// `fDDA` or `CDA`.
        public var name: String { self == .fDDA ? "fDDA" : "CDA" }
    }

    /// Not done, with why (the card offers no ODA, the transaction goes online without it, mag-stripe mode).
    case notPerformed(String)
    /// The signature verified under the card's certificate chain.
    case succeeded(Method)
    /// Verification failed; `reason` names the failed check (an `ODAError` code), never card data.
    case failed(Method, reason: String)

    /// Whether the card was authenticated.
    public var succeeded: Bool {
        if case .succeeded = self { return true }
        return false
    }

    /// Whether verification was attempted and failed.
    public var failed: Bool {
        if case .failed = self { return true }
        return false
    }

    /// `fDDA succeeded`, `CDA failed (hashMismatch)`, `not performed (...)`.
    public var description: String {
        switch self {
        case .notPerformed(let why): "not performed (\(why))"
        case .succeeded(let method): "\(method.name) succeeded"
        case .failed(let method, let reason): "\(method.name) failed (\(reason))"
        }
    }
}
