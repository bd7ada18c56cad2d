import AppFlipTesting
import FoundationEssentials
import Testing

/// `appflip bench` prints figures, never asserts them: this only checks that every scenario runs through
/// a real daemon with every reply a success, and that the ratios the targets use are reported.
@Suite struct BenchCommandTests {
    struct Report: Decodable {
        struct Row: Decodable {
            var scenario: String
            var connections: Int
            var requests: Int
            var failures: Int
        }

        var rows: [Row]
        var ratios: [String: Double]
    }

    @Test(.timeLimit(.minutes(2))) func everyScenarioRunsWithoutAFailedReply() async throws {
        let outcome = try await TestCommand.run(
            "appflip", ["bench", "--requests", "400", "--rounds", "2", "--connections", "1,4", "--rss-handoffs", "0", "--json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let report = try JSONDecoder().decode(Report.self, from: Data(outcome.standardOutput.utf8))
        #expect(Set(report.rows.map(\.scenario)) == ["raw echo", "raw relay", "appflipd builtin", "appflipd live app"])
        #expect(report.rows.count == 8)
        for row in report.rows {
            #expect(row.requests == 400, "\(row.scenario) × \(row.connections)")
            #expect(row.failures == 0, "\(row.scenario) × \(row.connections)")
        }
        for count in [1, 4] {
            #expect(report.ratios["live p50 / relay p50 @\(count)"] != nil)
            #expect(report.ratios["live throughput / relay throughput @\(count)"] != nil)
        }
    }
}
