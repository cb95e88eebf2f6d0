/// Application File Locator, tag 94 (EMV Book 3, 10.2): the records a terminal reads, as 4-byte entries of SFI,
/// first and last record number, and how many records from the first take part in offline data authentication.
///
/// The reader kernel reads records from it and ``StaticDataToBeAuthenticated`` picks the authenticated ones.
public struct ApplicationFileLocator: Hashable, Sendable {
    /// One entry: a file and a range of its records.
    public struct Entry: Hashable, Sendable {
        /// Short file identifier, 1...30.
        public let sfi: UInt8
        /// The records to read, first...last (first at least 1).
        public let recordNumbers: ClosedRange<UInt8>
        /// How many records from the first are covered by offline data authentication.
        public let authenticatedRecordCount: UInt8
    }

    /// One record to read.
    public struct Record: Hashable, Sendable {
        /// Short file identifier, 1...30.
        public let sfi: UInt8
        /// Record number.
        public let number: UInt8
        /// Whether offline data authentication covers it.
        public let isAuthenticated: Bool
    }

    /// The entries in order.
    public let entries: [Entry]

    /// Parses the value of tag 94; nil when its length is not a multiple of 4 or an entry is malformed (SFI bits 3-1
    /// set, SFI outside 1...30, first record 0, last before first, more authenticated records than the range has).
    public init?(bytes: some Collection<UInt8>) {
        let afl = Array(bytes)
        guard afl.count % 4 == 0 else { return nil }
        var entries: [Entry] = []
        for start in stride(from: 0, to: afl.count, by: 4) {
            let sfi = afl[start] >> 3
            let first = afl[start + 1]
            let last = afl[start + 2]
            let authenticated = afl[start + 3]
            guard afl[start] & 0x07 == 0, (1...30).contains(sfi), first >= 1, last >= first,
                Int(authenticated) <= Int(last - first) + 1
            else { return nil }
            entries.append(Entry(sfi: sfi, recordNumbers: first...last, authenticatedRecordCount: authenticated))
        }
        self.entries = entries
    }

    /// Every record to read, in order.
    public var records: [Record] {
        entries.flatMap { entry in
            entry.recordNumbers.map { number in
                Record(
                    sfi: entry.sfi, number: number,
                    isAuthenticated: Int(number - entry.recordNumbers.lowerBound) < Int(entry.authenticatedRecordCount))
            }
        }
    }

    /// The encoded value.
    public var bytes: [UInt8] {
        entries.flatMap {
            [$0.sfi << 3, $0.recordNumbers.lowerBound, $0.recordNumbers.upperBound, $0.authenticatedRecordCount]
        }
    }
}
