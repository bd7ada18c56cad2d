/// One measure of `appflip-bench`, from either load (`BenchLoad`'s request lines, `BenchClosedLoop`'s flips
/// and their parts): how many operations ran and failed in how long, and their latencies. Rounds of one
/// measure merge into one. Every figure reads by the same rules as the C load client's
/// (`Benchmarks/CBaseline/c-load.c`), so that Swift-driven and C-driven figures compare.
struct BenchFigures: Sendable {
    var operations = 0
    var failures = 0
    var seconds = 0.0
    /// In the unit the measure reports (µs for request lines, ms for flips), sorted.
    private(set) var latencies: [Double] = []

    init() {}

    init(operations: Int, failures: Int, seconds: Double, latencies: [Double]) {
        self.operations = operations
        self.failures = failures
        self.seconds = seconds
        self.latencies = latencies.sorted()
    }

    /// Successful operations per second; 0 for no time.
    var perSecond: Double { seconds > 0 ? Double(operations - failures) / seconds : 0 }

    /// The latency at `fraction` (0.5 for p50): `latencies[⌊fraction × (n − 1)⌋]`, c-load's rule; 0 with none.
    func percentile(_ fraction: Double) -> Double {
        latencies.isEmpty ? 0 : latencies[Int(fraction * Double(latencies.count - 1))]
    }

    /// Adds another round of the same measure.
    mutating func merge(_ other: BenchFigures) {
        operations += other.operations
        failures += other.failures
        seconds += other.seconds
        latencies = (latencies + other.latencies).sorted()
    }
}
