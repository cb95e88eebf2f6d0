/// The timetable of an open-loop load: request `i` is due `i / rate` seconds after the start, whatever happened to
/// the requests before it, and is handed to worker `i mod workers`.
///
/// Latency is measured from the time a request was due, not from when it was sent: a server that falls behind makes
/// requests start late, and that wait counts (no coordinated omission). Each worker sends its requests in order,
/// so one worker's requests (one card's ATCs) reach the server in order.
///
/// ```swift
/// let schedule = OpenLoopSchedule(rate: 500, duration: .seconds(10), workers: 64)
/// for index in schedule.requests(ofWorker: 3) { /* sleep until start + schedule.offset(ofRequest: index) … */ }
/// ```
public struct OpenLoopSchedule: Sendable, Hashable {
    /// Requests per second.
    public let rate: Double
    /// How long the load lasts.
    public let duration: Duration
    /// How many workers share the requests.
    public let workers: Int

    /// A schedule of `rate` requests per second for `duration`, over `workers` workers (at least 1). A rate that is
    /// not a positive finite number schedules nothing.
    public init(rate: Double, duration: Duration, workers: Int) {
        self.rate = rate.isFinite && rate > 0 ? rate : 0
        self.duration = max(duration, .zero)
        self.workers = max(workers, 1)
    }

    /// How many requests fall due: ⌊rate × duration⌋.
    public var requestCount: Int {
        guard rate > 0 else { return 0 }
        return Int((rate * Self.seconds(duration)).rounded(.down))
    }

    /// When request `index` is due, after the start.
    public func offset(ofRequest index: Int) -> Duration {
        guard rate > 0 else { return .zero }
        return .nanoseconds(Int64((Double(index) * 1e9 / rate).rounded()))
    }

    /// The requests worker `worker` sends, in order.
    public func requests(ofWorker worker: Int) -> StrideTo<Int> {
        stride(from: worker, to: worker < workers ? requestCount : worker, by: workers)
    }

    /// The time between two requests of one worker: a worker whose request takes longer starts its next one late.
    public var workerInterval: Duration {
        offset(ofRequest: workers)
    }

    /// The latency of request `index` that completed `elapsed` after the start: from when it was due.
    public func latency(ofRequest index: Int, completedAfter elapsed: Duration) -> Duration {
        elapsed - offset(ofRequest: index)
    }

    /// The workers needed so that each has `interval` between its requests at `rate` (at least 1): by Little's
    /// law, a server answering within `interval` then never makes a worker start late.
    public static func workers(rate: Double, interval: Duration) -> Int {
        guard rate.isFinite, rate > 0 else { return 1 }
        return max(1, Int((rate * seconds(interval)).rounded(.up)))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
