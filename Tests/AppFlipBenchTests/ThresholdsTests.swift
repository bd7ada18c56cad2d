import AppFlipTestSupport
import BenchmarkThresholds
import FoundationEssentials
import Testing

@testable import AppFlipBench

/// The thresholds and their verdicts, and every file of `Benchmarks/Thresholds` naming figures the Swift
/// benchmarks print.
@Suite struct ThresholdsTests {
    static let folder = Repository.path("Benchmarks/Thresholds")

    static func thresholds(_ pairs: [String: Thresholds.Threshold]) -> Thresholds {
        Thresholds(path: "test.json", thresholds: pairs)
    }

    @Test func aBoundIsKeptOrBrokenAndAGoalOnlyReported() {
        let thresholds = Self.thresholds([
            "ratio": .init(atMost: 1.5, why: "w"),
            "rate": .init(atLeast: 0.25, goal: 0.5, why: "w"),
        ])
        let kept = thresholds.report(["ratio": 1.5, "rate": 0.3])
        #expect(kept.passed)
        #expect(kept.lines.contains("  ok      rate: 0.3, at least 0.25; goal 0.5: not met"))
        #expect(kept.lines.contains("  ok      ratio: 1.5, at most 1.5"))

        let broken = thresholds.report(["ratio": 1.51, "rate": 0.6])
        #expect(!broken.passed)
        #expect(broken.lines.contains("  BROKEN  ratio: 1.51, at most 1.5"))
        #expect(broken.lines.contains("  ok      rate: 0.6, at least 0.25; goal 0.5: met"))
        #expect(!thresholds.report(["rate": 0.2]).passed)
        #expect(!thresholds.report(["ratio": .nan]).passed)
    }

    @Test func aRunThatMeasuresNoneOfThemFails() {
        let thresholds = Self.thresholds(["ratio": .init(atMost: 1.5, why: "w")])
        let report = thresholds.report(["another figure": 1])
        #expect(!report.passed)
        #expect(report.lines == ["thresholds (test.json):", "  -       ratio: not measured in this run (at most 1.5)", "none of these was measured"])
    }

    @Test func aThresholdNeedsExactlyOneBound() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("thresholds-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(#"{"ratio": {"atMost": 1, "atLeast": 0.5, "why": "w"}}"#.utf8).write(to: URL(filePath: path))
        #expect(throws: Thresholds.Unusable.self) { try Thresholds.load(from: path) }
        try Data(#"{"ratio": {"why": "w"}}"#.utf8).write(to: URL(filePath: path))
        #expect(throws: Thresholds.Unusable.self) { try Thresholds.load(from: path) }
    }

    @Test(arguments: ["artifacts", "audit", "bench-vs-c", "first-reply", "flip-parts", "handoffs", "instructions-per-handoff", "match"])
    func everyFileLoads(name: String) throws {
        let thresholds = try Thresholds.load(from: "\(Self.folder)/\(name).json")
        #expect(!thresholds.thresholds.isEmpty)
        #expect(thresholds.thresholds.values.allSatisfy { !$0.why.isEmpty })
    }

    /// A renamed figure would leave its threshold unchecked: the Swift benchmarks' files name what they print.
    @Test func theSwiftBenchmarksMeasureWhatTheirFilesName() throws {
        let flipParts = try Thresholds.load(from: "\(Self.folder)/flip-parts.json")
        let row = { (part: BenchFlipParts.Part) in
            BenchFlipParts.Row(part: part, connections: 1, operations: 1, failures: 0, perSecond: 1, p50Millis: 1, p99Millis: 1)
        }
        let rows = BenchFlipParts.Part.allCases.map(row)
        let flipFigures = Set(BenchFlipParts.ratios(rows, concurrency: 1).keys).union(BenchFlipParts.ratios(rows, concurrency: 64).keys)
        #expect(Set(flipParts.thresholds.keys).isSubset(of: flipFigures))

        let audit = try Thresholds.load(from: "\(Self.folder)/audit.json")
        #expect(Set(audit.thresholds.keys) == [BenchAudit.sequentialExchangesFigure])

        let handoffs = try Thresholds.load(from: "\(Self.folder)/handoffs.json")
        #expect(Set(handoffs.thresholds.keys) == [BenchCommand.rssFigure(handoffs: BenchCommand.defaultRSSHandoffs)])
    }
}
