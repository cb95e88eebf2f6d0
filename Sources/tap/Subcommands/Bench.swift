import ArgumentParser
import EMV
import Foundation

#if canImport(Glibc)
    // With ApplePay's dependencies in the module graph, Glibc's timespec resolves through CoreFoundation, whose
    // members MemberImportVisibility then asks to import explicitly.
    import CoreFoundation
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Tap {
    /// Throughput figures that need an outside baseline measured in the same run; the per-operation
    /// benchmarks live in the nested `Benchmarks` package.
    struct Bench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench",
            abstract: "Measure throughput against a baseline taken in the same run.",
            subcommands: [
                TDES.self, PCSCPurchases.self, GatewayLoad.self, TapToPayPurchases.self, ConsolePages.self,
                PointOfSaleCheckouts.self,
            ]
        )
    }
}

extension Tap.Bench {
    /// Our TDES against OpenSSL's `des-ede3` (ECB, 8 KiB buffers), alternating rounds so both see the same machine.
    ///
    /// Both rates are bytes per second of CPU time, which is what `openssl speed` reports unless given `-elapsed`:
    /// on a shared machine wall-clock time would charge each side for the other processes' load.
    struct TDES: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tdes",
            abstract: "TDES-ECB throughput of EMV's TDESKey versus `openssl speed -evp des-ede3`."
        )

        @Option(help: "Seconds per measurement.") var seconds: Int = 3
        @Option(help: "Rounds (ours then OpenSSL in each); medians are reported.") var rounds: Int = 3
        @Flag(help: "Print one JSON object instead of text.") var json = false

        func validate() throws {
            guard seconds >= 1, rounds >= 1 else { throw ValidationError("--seconds and --rounds must be at least 1") }
        }

        func run() throws {
            let key = try TDESKey([UInt8](hex: "0123456789ABCDEFFEDCBA987654321089ABCDEF01234567")!)
            var ours: [Double] = []
            var openssl: [Double] = []
            for round in 1...rounds {
                let mine = try Self.measureOurs(key: key, seconds: seconds)
                let theirs = try Self.measureOpenSSL(seconds: seconds)
                ours.append(mine)
                openssl.append(theirs)
                if !json {
                    print("round \(round): ours \(Self.megabytes(mine)) MB/s, openssl \(Self.megabytes(theirs)) MB/s")
                }
            }
            let oursMedian = ours.median, opensslMedian = openssl.median
            let ratio = oursMedian / opensslMedian
            if json {
                let fields = [
                    "\"ours_bytes_per_s\":\(Int(oursMedian))",
                    "\"openssl_bytes_per_s\":\(Int(opensslMedian))",
                    "\"ratio\":\(String(format: "%.3f", ratio))",
                ]
                print("{" + fields.joined(separator: ",") + "}")
            } else {
                print(
                    "median (MB per CPU second): ours \(Self.megabytes(oursMedian)), openssl des-ede3 "
                        + "\(Self.megabytes(opensslMedian)), ratio \(String(format: "%.1f%%", ratio * 100)) (target ≥ 25%)"
                )
            }
        }

        static func megabytes(_ bytesPerSecond: Double) -> String { String(format: "%.1f", bytesPerSecond / 1e6) }

        /// Encrypts 8 KiB buffers for `seconds` of this process's CPU time; bytes per CPU second.
        static func measureOurs(key: TDESKey, seconds: Int) throws -> Double {
            var buffer = [UInt8](repeating: 0x5A, count: 8192)
            let start = processCPUSeconds()
            var elapsed = 0.0
            var bytes = 0
            while elapsed < Double(seconds) {
                for _ in 0..<64 {
                    buffer = try key.encryptECB(buffer)
                    bytes += buffer.count
                }
                elapsed = processCPUSeconds() - start
            }
            return Double(bytes) / elapsed
        }

        /// CPU time used by this process so far, in seconds.
        static func processCPUSeconds() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }

        /// Runs `openssl speed -mr` and reads its machine-readable `+F:` line (bytes per second).
        static func measureOpenSSL(seconds: Int) throws -> Double {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
                "openssl", "speed", "-evp", "des-ede3", "-seconds", "\(seconds)", "-bytes", "8192", "-mr",
            ]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try withSignalsUnblocked { try process.run() }
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard
                let line = output.split(separator: "\n").first(where: { $0.hasPrefix("+F:") }),
                let rate = line.split(separator: ":").last.flatMap({ Double($0) })
            else { throw ValidationError("could not read `openssl speed` output (is openssl installed?)") }
            return rate
        }

        /// Runs `body` with no signal blocked on the calling thread, so that a child it spawns starts with none.
        ///
        /// A child inherits the signal mask of the thread that spawns it, and Swift concurrency's worker threads
        /// block nearly every signal. `openssl speed` ends each measurement on SIGALRM: with it blocked it runs
        /// forever, and with SIGTERM and SIGINT blocked nothing short of SIGKILL stops it.
        static func withSignalsUnblocked<T>(_ body: () throws -> T) rethrows -> T {
            var none = sigset_t()
            var previous = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, &previous)
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            return try body()
        }
    }
}

extension Array where Element == Double {
    /// The middle value (mean of the two middle values for an even count).
    var median: Double {
        let sorted = self.sorted()
        guard !sorted.isEmpty else { return .nan }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
