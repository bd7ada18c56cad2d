import AppFlipGoogle
import NIOConcurrencyHelpers

/// Closed-loop load for operations that are more than one request line (a flip, an HTTP exchange): every
/// worker keeps one operation in flight until `total` have run, and each success's latency is recorded.
enum BenchClosedLoop {
    /// Runs `operation(worker, index)` for indexes 0..<total, one in flight per worker; `operation` says
    /// whether it succeeded. The figures' latencies are the successes', in milliseconds.
    static func run<Worker: Sendable>(
        workers: [Worker],
        total: Int,
        _ operation: @escaping @Sendable (Worker, Int) async -> Bool
    ) async -> BenchFigures {
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
        return BenchFigures(
            operations: total,
            failures: results.reduce(0) { $0 + $1.failures },
            seconds: WallClock.since(started) / 1000,
            latencies: results.flatMap(\.latencies)
        )
    }
}
