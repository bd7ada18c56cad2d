import AppFlipGoogle
import NIOConcurrencyHelpers

/// Closed-loop load for operations that are more than one request line (a flip, an HTTP exchange): every
/// worker keeps one operation in flight until `total` have run, and each success's latency is recorded.
enum BenchClosedLoop {
    /// One run's figures; latencies in milliseconds, sorted.
    struct Figures: Sendable {
        var operations = 0
        var failures = 0
        var seconds = 0.0
        var latencies: [Double] = []

        /// Successful operations per second.
        var perSecond: Double { seconds > 0 ? Double(latencies.count) / seconds : 0 }

        /// The latency at `fraction` (0.5 for p50) in milliseconds; 0 with no successes.
        func percentile(_ fraction: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))]
        }

        /// Adds another round of the same measure.
        mutating func merge(_ other: Figures) {
            operations += other.operations
            failures += other.failures
            seconds += other.seconds
            latencies = (latencies + other.latencies).sorted()
        }
    }

    /// Runs `operation(worker, index)` for indexes 0..<total, one in flight per worker; `operation` says
    /// whether it succeeded.
    static func run<Worker: Sendable>(
        workers: [Worker],
        total: Int,
        _ operation: @escaping @Sendable (Worker, Int) async -> Bool
    ) async -> Figures {
        let next = NIOLockedValueBox(0)
        let started = WallClock.now()
        let results = await withTaskGroup(of: (latencies: [Double], failures: Int).self) { group in
            for worker in workers {
                group.addTask {
                    var latencies: [Double] = []
                    var failures = 0
                    while true {
                        let index = next.withLockedValue { value -> Int? in
                            guard value < total else { return nil }
                            defer { value += 1 }
                            return value
                        }
                        guard let index else { break }
                        let begin = WallClock.now()
                        if await operation(worker, index) {
                            latencies.append(WallClock.since(begin))
                        } else {
                            failures += 1
                        }
                    }
                    return (latencies, failures)
                }
            }
            return await group.reduce(into: [(latencies: [Double], failures: Int)]()) { $0.append($1) }
        }
        return Figures(
            operations: total,
            failures: results.reduce(0) { $0 + $1.failures },
            seconds: WallClock.since(started) / 1000,
            latencies: results.flatMap(\.latencies).sorted()
        )
    }
}
