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
    // Entries sorted by a key with the Kernel ID above the tag, so a lookup is a binary search: no hashing and no
    // copying of entries, which keeps building DOL data cheap.
    private var keys: [UInt64] = []
    private var storage: [TagInfo] = []

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
        let key = Self.key(entry.tag, kernelID: entry.kernel.id)
        let position = lowerBound(key)
        if position < keys.count && keys[position] == key {
            storage[position] = entry
        } else {
            keys.insert(key, at: position)
            storage.insert(entry, at: position)
        }
    }

    /// What `tag` means to `kernel`: the kernel's own entry, else the common one; nil for an unknown tag, and for a
    /// tag only some kernels define when asked for ``Kernel/generic`` (see ``meanings(of:)``).
    public func info(for tag: Tag, kernel: Kernel = .generic) -> TagInfo? {
        index(of: tag, kernel: kernel).map { storage[$0] }
    }

    /// Every meaning of `tag`: the common one first, then each kernel's own by Kernel ID.
    public func meanings(of tag: Tag) -> [TagInfo] {
        storage.filter { $0.tag == tag }
    }

    /// The value format `kernel` uses for `tag`; ``DataFormat/binary`` when the tag is unknown to it, which is how
    /// data object lists treat unknown data.
    public func format(of tag: Tag, kernel: Kernel = .generic) -> DataFormat {
        index(of: tag, kernel: kernel).map { storage[$0].format } ?? .binary
    }

    /// How to hide `tag`'s value when printing for `kernel`.
    ///
    /// Errs on the side of hiding: when `kernel`'s meaning is not sensitive but another kernel's is (`9F6B` is
    /// Track 2 Data for Kernel 2), that other masking applies, so data read under the wrong kernel cannot leak.
    public func masking(of tag: Tag, kernel: Kernel = .generic) -> TagInfo.Masking {
        if let own = index(of: tag, kernel: kernel), storage[own].masking != .none { return storage[own].masking }
        return storage.first { $0.tag == tag && $0.masking != .none }?.masking ?? .none
    }

    /// Every entry that applies to `kernel` (its own entries and the common ones it does not override), by tag.
    public func entries(for kernel: Kernel = .generic) -> [TagInfo] {
        let own = storage.filter { $0.kernel == kernel }
        let overridden = Set(own.map(\.tag))
        let common = kernel == .generic ? [] : storage.filter { $0.kernel == .generic && !overridden.contains($0.tag) }
        return (own + common).sorted { $0.tag < $1.tag }
    }

    /// Every tag the dictionary knows, for any kernel.
    public var tags: Set<Tag> { Set(storage.map(\.tag)) }

    private static func key(_ tag: Tag, kernelID: UInt8) -> UInt64 { UInt64(kernelID) << 32 | UInt64(tag.rawValue) }

    private func index(of tag: Tag, kernel: Kernel) -> Int? {
        if kernel.id != Kernel.generic.id, let own = index(Self.key(tag, kernelID: kernel.id)) { return own }
        return index(Self.key(tag, kernelID: Kernel.generic.id))
    }

    private func index(_ key: UInt64) -> Int? {
        let position = lowerBound(key)
        return position < keys.count && keys[position] == key ? position : nil
    }

    private func lowerBound(_ key: UInt64) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
