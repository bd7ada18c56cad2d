import AppFlipClient
import AppFlipCore
import AppFlipProtocol
import AppFlipTestSupport
import AppFlipTesting
import FoundationEssentials
import Testing

/// `appflip-bench` runs every mode through a real daemon with every reply a success, and reports the figures
/// its thresholds hold. A test never holds a figure to a threshold (`--no-thresholds`): speed is the
/// benchmarks' to judge, in `scripts/test --full`, not the tests'.
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

    @Test(.timeLimit(.minutes(5))) func everyScenarioRunsWithoutAFailedReply() async throws {
        let outcome = try await TestCommand.run(
            "appflip-bench",
            ["--requests", "400", "--rounds", "2", "--connections", "1,4", "--rss-handoffs", "0", "--json", "--no-thresholds"]
        )
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

    /// `--socket` measures a daemon that is already running: here a test daemon, with a live app of its own
    /// registered there already, which the bench's live app must not collide with.
    @Test(.timeLimit(.minutes(5))) func aRunningDaemonAtSocket() async throws {
        try await withTestDaemon { daemon in
            let other = try await daemon.connect()
            _ = try await other.register(
                RegisterRequest(appID: "BENCH.live", domains: ["applinks:live.bench"], components: [.object(["/": .string("*")])]),
                handler: ImmediateLiveApp { _ in LiveAnswer(continue: false) }
            )
            let outcome = try await TestCommand.run(
                "appflip-bench",
                ["--socket", daemon.socketPath, "--requests", "200", "--rounds", "1", "--connections", "1,2", "--json"]
            )
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let report = try JSONDecoder().decode(Report.self, from: Data(outcome.standardOutput.utf8))
            #expect(Set(report.rows.map(\.scenario)) == ["raw echo", "raw relay", "appflipd live app"])
            #expect(report.rows.allSatisfy { $0.failures == 0 && $0.requests == 200 })
            #expect(report.ratios["live throughput / relay throughput @2"] != nil)

            let builtin = try await TestCommand.run("appflip-bench", ["--socket", daemon.socketPath, "--scenarios", "builtin"])
            #expect(builtin.status == 64)
            #expect(builtin.standardError.contains("needs the in-process daemon"))
        }
    }

    /// `Config/oauth.json`.
    static let shippedOAuthConfiguration = Repository.path("Config/oauth.json")

    struct PartsReport: Decodable {
        struct Row: Decodable {
            var part: String
            var connections: Int
            var operations: Int
            var failures: Int
        }

        var rows: [Row]
        var ratios: [String: Double]
    }

    /// `--flip-parts` runs every part through the in-process daemon and its embedded OAuth server: every
    /// hop ends in `error=cancelled`, every /authorize in a code, every code exchanges, every flip links.
    @Test(.timeLimit(.minutes(5))) func flipPartsRunWithoutAFailure() async throws {
        let outcome = try await TestCommand.run(
            "appflip-bench",
            [
                "--flip-parts", "--flip-oauth-config", Self.shippedOAuthConfiguration, "--flips", "40", "--rounds", "2",
                "--connections", "1,3", "--json", "--no-thresholds",
            ]
        )
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let report = try JSONDecoder().decode(PartsReport.self, from: Data(outcome.standardOutput.utf8))
        #expect(report.rows.map(\.part) == ["hops", "authorize", "token", "flip", "hops", "authorize", "token", "flip"])
        #expect(report.rows.map(\.connections) == [1, 1, 1, 1, 3, 3, 3, 3])
        for row in report.rows {
            #expect(row.operations == 40 && row.failures == 0, "\(row.part) × \(row.connections)")
        }
        for count in [1, 3] {
            #expect(report.ratios["flip p50 / sum of the parts' p50 @\(count)"] != nil)
            #expect(report.ratios["flip time per flip / sum of the parts' times per operation @\(count)"] != nil)
        }
    }

    /// A client the configuration does not have is a usage error, named, before anything runs.
    @Test func flipPartsRefuseAnUnknownClient() async throws {
        let outcome = try await TestCommand.run(
            "appflip-bench",
            ["--flip-parts", "--flip-oauth-config", Self.shippedOAuthConfiguration, "--flip-client-id", "nobody"]
        )
        #expect(outcome.status == 64)
        #expect(outcome.standardError.contains("has no client nobody"))
    }

    /// `--check-thresholds` holds the figures another benchmark measured (JSON on stdin) to a file: each verdict
    /// printed, exit 1 when one is broken.
    @Test func theFiguresOfAnotherBenchmarkAreHeldToItsThresholds() async throws {
        let file = Repository.path("Benchmarks/Thresholds/bench-vs-c.json")
        let kept = try await TestCommand.run(
            "appflip-bench",
            ["--check-thresholds", file],
            input: #"{"live p50@1 / c-relay": 1.2, "live throughput@64 / live-quiet": 0.9}"#
        )
        #expect(kept.status == 0, "\(kept.standardOutput)\(kept.standardError)")
        #expect(kept.standardOutput.contains("ok      live p50@1 / c-relay: 1.2, at most 1.5"))
        #expect(kept.standardOutput.contains("-       live p99@64 / c-relay: not measured in this run"))

        let broken = try await TestCommand.run("appflip-bench", ["--check-thresholds", file], input: #"{"live p50@1 / c-relay": 1.6}"#)
        #expect(broken.status == 1)
        #expect(broken.standardOutput.contains("BROKEN  live p50@1 / c-relay: 1.6, at most 1.5"))

        let unknown = try await TestCommand.run("appflip-bench", ["--check-thresholds", file], input: #"{"something else": 1}"#)
        #expect(unknown.status == 1)
        #expect(unknown.standardOutput.contains("none of these was measured"))
    }
}
