/// An EMV kernel: the set of rules, and data dictionary, a reader applies to a card application.
///
/// Some contactless tags mean different things to different kernels (`9F6C` is the Card Transaction Qualifiers
/// for Kernel 3 but the Mag-stripe Application Version Number for Kernel 2), so ``TagDictionary`` lookups take a
/// kernel. The identifiers are the Kernel IDs of EMV Contactless Book B; ``generic`` (0) stands for the contact
/// specification, EMV Book 3.
public struct Kernel: Hashable, Sendable, CustomStringConvertible {
    /// The Kernel ID from EMV Contactless Book B (0 for ``generic``).
    public let id: UInt8
    /// A short name, e.g. `C-2`.
    public let name: String

    /// Creates a kernel with a Kernel ID and a short name.
    public init(id: UInt8, name: String) {
        self.id = id
        self.name = name
    }

    /// The contact specification (EMV Book 3) and tags common to every kernel.
    public static let generic = Kernel(id: 0, name: "EMV")
    /// Kernel 2: Mastercard (EMV Contactless Book C-2).
    public static let c2 = Kernel(id: 2, name: "C-2")
    /// Kernel 3: Visa (EMV Contactless Book C-3).
    public static let c3 = Kernel(id: 3, name: "C-3")
    /// Kernel 4: American Express (EMV Contactless Book C-4).
    public static let c4 = Kernel(id: 4, name: "C-4")
    /// Kernel 5: JCB (EMV Contactless Book C-5).
    public static let c5 = Kernel(id: 5, name: "C-5")
    /// Kernel 6: Discover (EMV Contactless Book C-6).
    public static let c6 = Kernel(id: 6, name: "C-6")
    /// Kernel 7: UnionPay (EMV Contactless Book C-7).
    public static let c7 = Kernel(id: 7, name: "C-7")

    /// Kernel 2, by its payment system.
    public static let mastercard = c2
    /// Kernel 3, by its payment system.
    public static let visa = c3

    /// The short name.
    public var description: String { name }

    /// Kernels are identified by their ID.
    public static func == (lhs: Kernel, rhs: Kernel) -> Bool { lhs.id == rhs.id }

    /// Hashes the ID.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
