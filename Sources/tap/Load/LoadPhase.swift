import Foundation
import TestMode

/// What one measured phase did: completed requests, their latencies, and the failures by cause.
struct LoadPhase: Sendable {
    /// One request's end: nil when it did what the phase expects, else a short cause (a problem code, an HTTP
    /// status, `transport`).
    typealias Outcome = String?

    var completed = 0
    var failures: [String: Int] = [:]
    var latencies = LatencySamples()
    /// Wall time from the start to the last answer.
    var elapsed: Duration = .zero
    /// CPU time the whole process (server, issuer and load generator, all threads) used meanwhile.
    var cpu: Duration = .zero
    /// Workers that ran out of pre-made requests before the end.
    var exhaustedWorkers = 0

    /// Answers (successful or not) per second of wall time.
    var perSecond: Double {
        elapsed > .zero ? Double(completed) / (elapsed / .seconds(1)) : 0
    }

    var failureCount: Int { failures.values.reduce(0, +) }

    /// Microseconds of the process's CPU time per answer: steadier than rates on a shared machine, whose CPUs run
    /// at whatever speed its neighbours leave them.
    var cpuMicrosecondsPerRequest: Double {
        completed > 0 ? cpu / .microseconds(completed) : 0
    }

    /// The process's CPU time so far (all threads).
    static func processCPUTime() -> Duration {
        .microseconds(Int64(clock()) * 1_000_000 / Int64(CLOCKS_PER_SEC))  // C's clock(): all threads, in µs
    }

    /// Adds a phase measured after this one (another round): its requests, wall time and CPU time.
    mutating func append(_ later: LoadPhase) {
        merge(later)
        elapsed += later.elapsed
        cpu += later.cpu
    }

    /// Adds a phase measured at the same time (another worker's): its requests, not its times.
    mutating func merge(_ other: LoadPhase) {
        completed += other.completed
        latencies.merge(other.latencies)
        failures.merge(other.failures, uniquingKeysWith: +)
        exhaustedWorkers += other.exhaustedWorkers
    }

    mutating func record(_ outcome: Outcome, latency: Duration) {
        completed += 1
        latencies.record(latency)
        if let outcome { failures[outcome, default: 0] += 1 }
    }

    /// `workers` workers, each sending its next request as soon as the previous one is answered, until `duration`
    /// has passed; worker `w`'s `i`-th request is `send(w, i)`, which returns nil when the worker has no more.
    static func closedLoop(
        workers: Int, duration: Duration, _ send: @escaping @Sendable (Int, Int) async -> Outcome?
    ) async -> LoadPhase {
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = processCPUTime()
        let deadline = start + duration
        return await withTaskGroup(of: LoadPhase.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var phase = LoadPhase()
                    var index = 0
                    while clock.now < deadline {
                        let sent = clock.now
                        guard let outcome = await send(worker, index) else {
                            phase.exhaustedWorkers = 1
                            break
                        }
                        phase.record(outcome, latency: clock.now - sent)
                        index += 1
                    }
                    return phase
                }
            }
            var total = LoadPhase()
            for await phase in group { total.merge(phase) }
            total.elapsed = clock.now - start
            total.cpu = processCPUTime() - cpuStart
            return total
        }
    }

    /// The requests of `schedule`, each sent when it falls due (or as soon as its worker is free, if later) by
    /// worker `index mod workers` as `send(worker, n)` (its `n`-th); latencies run from when each was due.
    static func openLoop(
        _ schedule: OpenLoopSchedule, _ send: @escaping @Sendable (Int, Int) async -> Outcome
    ) async -> LoadPhase {
        let clock = ContinuousClock()
        // A little lead so every worker is waiting before the first request falls due.
        let start = clock.now + .milliseconds(20)
        return await withTaskGroup(of: LoadPhase.self) { group in
            for worker in 0..<schedule.workers {
                group.addTask {
                    var phase = LoadPhase()
                    for (number, index) in schedule.requests(ofWorker: worker).enumerated() {
                        let due = start + schedule.offset(ofRequest: index)
                        if clock.now < due { try? await clock.sleep(until: due, tolerance: .zero) }
                        let outcome = await send(worker, number)
                        phase.record(
                            outcome, latency: schedule.latency(ofRequest: index, completedAfter: clock.now - start))
                    }
                    return phase
                }
            }
            var total = LoadPhase()
            for await phase in group { total.merge(phase) }
            total.elapsed = clock.now - start
            return total
        }
    }
}
