import Testing
import TestMode

/// The load generator's arithmetic: nearest-rank percentiles and the open-loop timetable (no timing involved).
@Suite struct LoadStatisticsTests {
    @Test func percentilesAreNearestRank() {
        // 1…100 ms: p50 is the 50th value, p99 the 99th, p100 the largest, p0 the smallest.
        let samples = LatencySamples(nanoseconds: (1...100).reversed().map { Int64($0) * 1_000_000 })
        #expect(samples.percentile(50) == 50_000_000)
        #expect(samples.percentile(99) == 99_000_000)
        #expect(samples.percentile(99.5) == 100_000_000)
        #expect(samples.percentile(100) == 100_000_000)
        #expect(samples.percentile(0) == 1_000_000)
        #expect(samples.percentile(150) == 100_000_000)
    }

    @Test(
        arguments: [
            // (samples, percent, expected): rank ⌈p/100 × n⌉.
            ([7], 50.0, 7), ([7], 99.0, 7), ([1, 2], 50.0, 1), ([1, 2], 50.1, 2), ([4, 1, 3, 2], 75.0, 3),
            ([10, 20, 30], 66.6, 20), ([10, 20, 30], 66.7, 30),
        ] as [([Int64], Double, Int64)])
    func percentileRanks(samples: [Int64], percent: Double, expected: Int64) {
        #expect(LatencySamples(nanoseconds: samples).percentile(percent) == expected)
    }

    @Test func emptySamplesHaveNoPercentile() {
        #expect(LatencySamples().percentile(50) == nil)
        #expect(
            LatencySamples().summary() == LatencySummary(count: 0, p50Ms: 0, p90Ms: 0, p99Ms: 0, minMs: 0, maxMs: 0))
    }

    @Test func recordsDurationsAndMerges() {
        var first = LatencySamples()
        first.record(.milliseconds(3))
        first.record(.microseconds(1_500))
        // A clock read out of order counts as zero, never negative.
        first.record(.milliseconds(-1))
        var second = LatencySamples()
        second.record(.seconds(1))
        first.merge(second)
        #expect(first.nanoseconds == [3_000_000, 1_500_000, 0, 1_000_000_000])
        let summary = first.summary()
        #expect(summary.count == 4)
        #expect(summary.p50Ms == 1.5)
        #expect(summary.p99Ms == 1_000)
        #expect(summary.minMs == 0)
        #expect(summary.maxMs == 1_000)
    }

    @Test func scheduleSpacesRequestsByTheRate() {
        let schedule = OpenLoopSchedule(rate: 500, duration: .seconds(10), workers: 64)
        #expect(schedule.requestCount == 5_000)
        #expect(schedule.offset(ofRequest: 0) == .zero)
        #expect(schedule.offset(ofRequest: 1) == .milliseconds(2))
        #expect(schedule.offset(ofRequest: 4_999) == .milliseconds(9_998))
        #expect(schedule.workerInterval == .milliseconds(128))
    }

    @Test func scheduleOffsetsAreExactForUnevenRates() {
        let schedule = OpenLoopSchedule(rate: 3, duration: .seconds(1), workers: 1)
        #expect(schedule.requestCount == 3)
        #expect(schedule.offset(ofRequest: 1) == .nanoseconds(333_333_333))
        #expect(schedule.offset(ofRequest: 2) == .nanoseconds(666_666_667))
        #expect(schedule.offset(ofRequest: 3) == .seconds(1))
        // A fractional count rounds down: 2.5 requests per second for 3 s is 7.
        #expect(OpenLoopSchedule(rate: 2.5, duration: .seconds(3), workers: 2).requestCount == 7)
    }

    @Test func everyRequestGoesToExactlyOneWorkerInOrder() {
        let schedule = OpenLoopSchedule(rate: 97, duration: .milliseconds(2_500), workers: 7)
        let assigned = (0..<schedule.workers).flatMap { Array(schedule.requests(ofWorker: $0)) }
        #expect(assigned.sorted() == Array(0..<schedule.requestCount))
        for worker in 0..<schedule.workers {
            let requests = Array(schedule.requests(ofWorker: worker))
            #expect(requests == requests.sorted())
            #expect(requests.allSatisfy { $0 % schedule.workers == worker })
        }
        #expect(Array(schedule.requests(ofWorker: 7)).isEmpty)
    }

    @Test func latencyRunsFromWhenTheRequestWasDue() {
        let schedule = OpenLoopSchedule(rate: 100, duration: .seconds(1), workers: 4)
        // Request 10 is due at 100 ms; answered at 130 ms it took 30 ms, even if it was sent late.
        #expect(schedule.latency(ofRequest: 10, completedAfter: .milliseconds(130)) == .milliseconds(30))
    }

    @Test func workersForAnInterval() {
        #expect(OpenLoopSchedule.workers(rate: 500, interval: .milliseconds(100)) == 50)
        #expect(OpenLoopSchedule.workers(rate: 501, interval: .milliseconds(100)) == 51)
        #expect(OpenLoopSchedule.workers(rate: 1, interval: .milliseconds(1)) == 1)
        #expect(OpenLoopSchedule.workers(rate: .nan, interval: .seconds(1)) == 1)
    }

    @Test func invalidRatesScheduleNothing() {
        for rate in [0, -5, .infinity, .nan] as [Double] {
            let schedule = OpenLoopSchedule(rate: rate, duration: .seconds(5), workers: 0)
            #expect(schedule.requestCount == 0)
            #expect(schedule.workers == 1)
            #expect(Array(schedule.requests(ofWorker: 0)).isEmpty)
        }
    }
}
