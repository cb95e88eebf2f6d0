/// An EMV data dictionary: names, formats, sources and sensitivity of tags, per kernel where meanings differ.
///
/// ``standard`` holds EMV Book 3 Annex A, the Entry Point tags of Books A and B, and the kernel-specific tags of
/// Books C-2 (Mastercard), C-3 (Visa) and C-4 (American Express). A lookup for a kernel returns that kernel's
/// meaning when it has its own, else the common one:
///
/// ```swift
/// TagDictionary.standard.info(for: 0x9F6C, kernel: .c3)?.name  // "Card Transaction Qualifiers (CTQ)"
/// TagDictionary.standard.info(for: 0x9F6C, kernel: .c2)?.name  // "Mag-stripe Application Version Number (Card)"
/// ```
public struct TagDictionary: Sendable {
    private var common: [Tag: TagInfo] = [:]
    private var kernelSpecific: [Kernel: [Tag: TagInfo]] = [:]

    /// Creates a dictionary from entries; an entry replaces an earlier one with the same tag and kernel.
    public init(_ entries: some Sequence<TagInfo>) {
        for entry in entries { add(entry) }
    }

    /// The built-in dictionary (see the type's overview for what it covers).
    public static let standard: TagDictionary = {
        var dictionary = TagDictionary(book3Entries)
        for (kernel, entries) in [(Kernel.c2, kernel2Entries), (.c3, kernel3Entries), (.c4, kernel4Entries)] {
            for var entry in entries {
                entry.kernel = kernel
                dictionary.add(entry)
            }
        }
        return dictionary
    }()

    /// Adds or replaces an entry (for the entry's kernel).
    public mutating func add(_ entry: TagInfo) {
        if entry.kernel == .generic {
            common[entry.tag] = entry
        } else {
            kernelSpecific[entry.kernel, default: [:]][entry.tag] = entry
        }
    }

    /// What `tag` means to `kernel`: the kernel's own entry, else the common one; nil for an unknown tag, and for a
    /// tag only some kernels define when asked for ``Kernel/generic`` (see ``meanings(of:)``).
    public func info(for tag: Tag, kernel: Kernel = .generic) -> TagInfo? {
        if kernel != .generic, let specific = kernelSpecific[kernel]?[tag] { return specific }
        return common[tag]
    }

    /// Every meaning of `tag`: the common one first, then each kernel's own by Kernel ID.
    public func meanings(of tag: Tag) -> [TagInfo] {
        var result: [TagInfo] = []
        if let entry = common[tag] { result.append(entry) }
        for kernel in kernelSpecific.keys.sorted(by: { $0.id < $1.id }) {
            if let entry = kernelSpecific[kernel]?[tag] { result.append(entry) }
        }
        return result
    }

    /// The value format `kernel` uses for `tag`; ``DataFormat/binary`` when the tag is unknown to it, which is how
    /// data object lists treat unknown data.
    public func format(of tag: Tag, kernel: Kernel = .generic) -> DataFormat {
        info(for: tag, kernel: kernel)?.format ?? .binary
    }

    /// How to hide `tag`'s value when printing for `kernel`.
    ///
    /// Errs on the side of hiding: when `kernel`'s meaning is not sensitive but another kernel's is (`9F6B` is
    /// Track 2 Data for Kernel 2), that other masking applies, so data read under the wrong kernel cannot leak.
    public func masking(of tag: Tag, kernel: Kernel = .generic) -> TagInfo.Masking {
        if let own = info(for: tag, kernel: kernel), own.masking != .none { return own.masking }
        return meanings(of: tag).first { $0.masking != .none }?.masking ?? .none
    }

    /// Every entry that applies to `kernel` (its own entries and the common ones it does not override), by tag.
    public func entries(for kernel: Kernel = .generic) -> [TagInfo] {
        var merged = common
        if kernel != .generic {
            merged.merge(kernelSpecific[kernel] ?? [:]) { _, specific in specific }
        }
        return merged.values.sorted { $0.tag < $1.tag }
    }

    /// Every tag the dictionary knows, for any kernel.
    public var tags: Set<Tag> {
        var result = Set(common.keys)
        for table in kernelSpecific.values { result.formUnion(table.keys) }
        return result
    }
}
