import AppFlipClient
import AppFlipCore
import AppFlipOAuth
import AppFlipTestSupport
import AppFlipTesting
import FoundationEssentials
import Testing

/// The real `appflip flip` executable against a real daemon and the embedded OAuth server.
@Suite struct FlipCommandTests {
    static func arguments(_ daemon: TestDaemon, _ extra: [String]) async throws -> [String] {
        [
            "flip", "--socket", daemon.socketPath, "--link", TestPartner.link, "--client-id", TestPartner.clientID,
            "--scope", "profile", "--scope", "devices", "--token-url", try await daemon.oauthServer!.baseURL() + "/token",
            "--client-secret", TestPartner.clientSecret,
        ] + extra
    }

    struct Report: Decodable {
        struct Step: Decodable {
            var step: Int
            var status: String
            var milliseconds: Double?
        }
        struct Tokens: Decodable {
            var tokenType: String
            var accessTokenFormat: String
            var refreshTokenIssued: Bool
            var violations: [String]
        }
        var state: String
        var result: String?
        var steps: [Step]
        var tokens: Tokens?
        var refreshed: Tokens?
        var unlinked: Bool?
        var exitStatus: Int32
        var failure: String?
    }

    @Test func aFullFlipLinksAndReportsEveryStep() async throws {
        try await TestPartner.run { daemon in
            let outcome = try await TestCommand.run("appflip", try await Self.arguments(daemon, ["--json", "--trace", "--state", "a+b &c=%41 😀"]))
            #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
            let report = try JSONDecoder().decode(Report.self, from: Data(outcome.standardOutput.utf8))
            #expect(report.state == "a+b &c=%41 😀")
            #expect(report.result == "code")
            #expect(report.steps.map(\.step) == [1, 2, 3, 4, 5])
            #expect(report.steps.allSatisfy { $0.status == "ok" })
            #expect(report.steps.filter { $0.milliseconds != nil }.map(\.step) == [1, 3, 4, 5])
            #expect(report.tokens?.tokenType == "Bearer")
            #expect(report.tokens?.accessTokenFormat == "opaque")
            #expect(report.tokens?.violations == [])
            #expect(report.refreshed != nil)
            // Tokens and the code never reach the output: only fingerprints.
            #expect(!outcome.standardOutput.contains("\"accessToken\""))
        }
    }

    @Test func unlinkRevokesThroughTheMetadataAndConfirmsTheTokensAreDead() async throws {
        try await TestPartner.run { daemon in
            let base = try await daemon.oauthServer!.baseURL()
            let outcome = try await TestCommand.run(
                "appflip",
                try await Self.arguments(daemon, ["--json", "--unlink", "--resource-url", base + "/userinfo"])
            )
            #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
            let report = try JSONDecoder().decode(Report.self, from: Data(outcome.standardOutput.utf8))
            #expect(report.steps.map(\.step) == [1, 2, 3, 4, 5, 6, 7])
            #expect(report.steps.allSatisfy { $0.status == "ok" }, "\(report.steps)")
            #expect(report.unlinked == true)

            let trace = try await TestCommand.run(
                "appflip",
                try await Self.arguments(daemon, ["--trace", "--unlink", "--revoke-url", base + "/revoke"]),
                environment: ["NO_COLOR": "1"]
            )
            #expect(trace.status == 0, "\(trace.standardOutput)\(trace.standardError)")
            #expect(trace.standardOutput.contains("✔ 6 tokens revoked (unlink)"))
            #expect(trace.standardOutput.contains("✔ 7 revoked tokens are dead"))
            #expect(trace.standardOutput.contains("refresh token: invalid_grant"))
            #expect(trace.standardOutput.contains("✔ unlinked"))
        }
    }

    @Test func unlinkWithoutARevocationEndpointFailsStepSix() async throws {
        try await TestPartner.run { daemon in
            let base = try await daemon.oauthServer!.baseURL()
            let outcome = try await TestCommand.run(
                "appflip",
                try await Self.arguments(daemon, ["--json", "--unlink", "--revoke-url", base + "/no-such-endpoint"])
            )
            #expect(outcome.status == 1, "\(outcome.standardOutput)\(outcome.standardError)")
            let report = try JSONDecoder().decode(Report.self, from: Data(outcome.standardOutput.utf8))
            #expect(report.steps.map(\.status) == ["ok", "ok", "ok", "ok", "ok", "failed", "skipped"])
            #expect(report.failure?.hasPrefix("step 6") == true)
            #expect(report.unlinked == false)
            let usage = try await TestCommand.run("appflip", try await Self.arguments(daemon, ["--unlink", "--no-exchange"]))
            #expect(usage.status == 64)
        }
    }

    @Test func theTraceNamesEveryStepAndStopsAtTheFailingOne() async throws {
        try await TestPartner.run(handler: TestPartner.handler(outcome: "cancel")) { daemon in
            let outcome = try await TestCommand.run("appflip", try await Self.arguments(daemon, ["--trace"]), environment: ["NO_COLOR": "1"])
            #expect(outcome.status == 1)
            for name in ["universal link opened", "app checked the parameters", "code obtained", "result link delivered", "tokens exchanged"] {
                #expect(outcome.standardOutput.contains(name), "\(name) missing from \(outcome.standardOutput)")
            }
            #expect(outcome.standardOutput.contains("step 3 (code obtained) failed: the app answered error=cancelled"))
            #expect(!outcome.standardOutput.contains("\u{1B}["))
        }
    }

    @Test func aDeclinedLinkStopsAtStepTwo() async throws {
        try await TestPartner.run { daemon in
            let arguments = try await Self.arguments(daemon, ["--json"]).map { $0 == TestPartner.clientID ? "someone-else" : $0 }
            let outcome = try await TestCommand.run("appflip", arguments)
            #expect(outcome.status == 1)
            let report = try JSONDecoder().decode(Report.self, from: Data(outcome.standardOutput.utf8))
            #expect(report.failure?.hasPrefix("step 2 (app checked the parameters) failed: the app declined") == true)
            #expect(report.steps.map(\.status) == ["ok", "failed", "skipped", "skipped", "skipped"])
        }
    }

    @Test func aTokenEndpointErrorFailsStepFive() async throws {
        try await TestPartner.run { daemon in
            let arguments = try await Self.arguments(daemon, ["--json"]).map { $0 == TestPartner.clientSecret ? "wrong-secret-0123456789" : $0 }
            let outcome = try await TestCommand.run("appflip", arguments)
            #expect(outcome.status == 1)
            let report = try JSONDecoder().decode(Report.self, from: Data(outcome.standardOutput.utf8))
            #expect(report.failure?.contains("step 5 (tokens exchanged) failed") == true)
            #expect(report.failure?.contains("invalid_client") == true)
        }
    }

    @Test func anUnreachableDaemonExitsThree() async throws {
        let outcome = try await TestCommand.run(
            "appflip",
            ["flip", "--socket", "/nonexistent/appflipd.sock", "--link", TestPartner.link, "--client-id", "c", "--scope", "s", "--no-exchange"]
        )
        #expect(outcome.status == 3)
        #expect(outcome.standardError.hasPrefix("appflip: appflipd is not running at /nonexistent/appflipd.sock (no socket there): start it with "))
    }

    @Test func withoutAScopeFlipIsAUsageErrorThatSaysWhy() async throws {
        let outcome = try await TestCommand.run("appflip", ["flip", "--link", TestPartner.link, "--client-id", "c", "--no-exchange"])
        #expect(outcome.status == 64)
        #expect(outcome.standardError.contains("the Google app always sends the scopes of the Actions project"))
    }
}
