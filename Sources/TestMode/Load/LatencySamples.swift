/// Latencies recorded by a load generator, and their nearest-rank percentiles.
///
/// Samples are kept whole (8 bytes each), so percentiles are exact rather than read from histogram buckets: a
/// benchmark of some seconds records at most a few hundred thousand.
///
/// ```swift
/// var samples = LatencySamples()
/// samples.record(.milliseconds(3))
/// let summary = samples.summary()   // p50, p99, max in milliseconds
/// ```
public struct LatencySamples: Sendable, Hashable {
    /// The samples in nanoseconds, in recording order.
    public private(set) var nanoseconds: [Int64] = []

    /// No samples.
    public init() {}

    /// Samples given in nanoseconds.
    public init(nanoseconds: [Int64]) {
        self.nanoseconds = nanoseconds
    }

    /// How many samples there are.
    public var count: Int { nanoseconds.count }

    /// Adds one latency; a negative one (a clock read out of order) counts as zero.
    public mutating func record(_ latency: Duration) {
        let (seconds, attoseconds) = latency.components
        nanoseconds.append(max(0, seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000))
    }

    /// Adds every sample of `other` (each worker records its own; the phase merges them).
    public mutating func merge(_ other: LatencySamples) {
        nanoseconds += other.nanoseconds
    }

    /// The nearest-rank percentile in nanoseconds: the smallest sample that at least `percent` % of all samples
    /// are at or below; nil without samples. `percent` is clamped to 0…100 (0 gives the minimum).
    public func percentile(_ percent: Double) -> Int64? {
        Self.percentile(percent, ofSorted: nanoseconds.sorted())
    }

    /// p50, p90, p99 and the extremes, sorting once.
    public func summary() -> LatencySummary {
        let sorted = nanoseconds.sorted()
        func milliseconds(_ percent: Double) -> Double {
            Self.percentile(percent, ofSorted: sorted).map { Double($0) / 1e6 } ?? 0
        }
        return LatencySummary(
            count: sorted.count, p50Ms: milliseconds(50), p90Ms: milliseconds(90), p99Ms: milliseconds(99),
            minMs: milliseconds(0), maxMs: milliseconds(100))
    }

    /// The nearest-rank percentile of ascending `sorted`: rank ⌈p/100 × n⌉, at least 1.
    static func percentile(_ percent: Double, ofSorted sorted: [Int64]) -> Int64? {
        guard !sorted.isEmpty, !percent.isNaN else { return nil }
        let clamped = min(max(percent, 0), 100)
        let rank = Int((clamped / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

/// Percentiles of a set of latencies, in milliseconds (0 when there were no samples).
public struct LatencySummary: Sendable, Hashable, Codable {
    /// How many samples.
    public var count: Int
    /// The median.
    public var p50Ms: Double
    /// The 90th percentile.
    public var p90Ms: Double
    /// The 99th percentile.
    public var p99Ms: Double
    /// The fastest.
    public var minMs: Double
    /// The slowest.
    public var maxMs: Double

    /// A summary of the given figures.
    public init(count: Int, p50Ms: Double, p90Ms: Double, p99Ms: Double, minMs: Double, maxMs: Double) {
        self.count = count
        self.p50Ms = p50Ms
        self.p90Ms = p90Ms
        self.p99Ms = p99Ms
        self.minMs = minMs
        self.maxMs = maxMs
    }
}
