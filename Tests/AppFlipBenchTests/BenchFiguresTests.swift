import Testing

@testable import AppFlipBench

/// Every `appflip-bench` figure reads by c-load's rules, whichever load measured it.
@Suite struct BenchFiguresTests {
    @Test func percentilesAreCLoadsNearestRankBelow() {
        // c-load: latencies[(size_t)(q * (n - 1))] of the sorted latencies.
        let latencies = (1...200).map(Double.init).shuffled()
        let figures = BenchFigures(operations: 200, failures: 0, seconds: 1, latencies: latencies)
        #expect(figures.percentile(0.5) == 100)  // ⌊0.5 × 199⌋ = 99
        #expect(figures.percentile(0.99) == 198)  // ⌊0.99 × 199⌋ = 197
        #expect(figures.percentile(0) == 1)
        #expect(figures.percentile(1) == 200)
        #expect(BenchFigures().percentile(0.5) == 0)
    }

    @Test func roundsMergeIntoOneMeasureOfSuccessesPerSecond() {
        var figures = BenchFigures()
        figures.merge(BenchFigures(operations: 100, failures: 10, seconds: 2, latencies: [5, 1, 3]))
        figures.merge(BenchFigures(operations: 50, failures: 0, seconds: 1, latencies: [4, 2]))
        #expect(figures.operations == 150)
        #expect(figures.failures == 10)
        #expect(figures.perSecond == 140.0 / 3)
        #expect(figures.latencies == [1, 2, 3, 4, 5])
        #expect(figures.percentile(0.5) == 3)
        #expect(BenchFigures().perSecond == 0)
    }
}
