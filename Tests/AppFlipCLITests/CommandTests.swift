import AppFlipCore
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTestSupport
import AppFlipTesting
import FoundationEssentials
import Testing

/// The built `appflip` commands against a real daemon: exit statuses, `--json`, and `NO_COLOR`.
@Suite struct CommandTests {
    static let apps = [
        TestApp(
            appID: "T.accept",
            domains: ["applinks:accept.test"],
            components: [.object(["/": .string("/no/*"), "exclude": .bool(true)]), .object(["/": .string("*")])],
            handler: .accept
        ),
        TestApp(appID: "T.opener", domains: ["applinks:opener.test"], handler: .script("echo https://nobody.test/result")),
    ]

    @Test func bothProgramsPrintTheOneReleaseVersion() async throws {
        for program in ["appflip", "appflipd"] {
            let outcome = try await TestCommand.run(program, ["--version"])
            #expect(outcome.status == 0, "\(program) --version")
            #expect(outcome.standardOutput == ReleaseVersion.current + "\n", "\(program) --version")
        }
    }

    @Test func openExitStatusesAndJSON() async throws {
        try await withTestDaemon(apps: Self.apps) { daemon in
            let environment = ["APPFLIP_SOCKET": daemon.socketPath, "NO_COLOR": "1"]
            let handled = try await TestCommand.run("appflip", ["open", "https://accept.test/x"], environment: environment)
            #expect(handled.status == 0)
            #expect(handled.standardOutput.hasPrefix("✔ handled by T.accept"))
            #expect(!handled.standardOutput.contains("\u{1B}["))

            let excluded = try await TestCommand.run("appflip", ["open", "https://accept.test/no/1", "--json"], environment: environment)
            #expect(excluded.status == 1)
            let reply = try JSONDecoder().decode(Reply.self, from: Data(excluded.standardOutput.utf8))
            #expect(reply.error?.code == .excluded)

            let undelivered = try await TestCommand.run("appflip", ["open", "https://opener.test/"], environment: environment)
            #expect(undelivered.status == 2)
            #expect(undelivered.standardOutput.contains("failed: no_app"))

            let browser = try await TestCommand.run("appflip", ["open", "--allow-browser", "https://nobody.test/"], environment: environment)
            #expect(browser.status == 0)

            let unreachable = try await TestCommand.run("appflip", ["open", "--socket", daemon.directory + "/none.sock", "https://accept.test/"])
            #expect(unreachable.status == 3)
            #expect(unreachable.standardError.contains("appflipd is not running at "))
            #expect(unreachable.standardError.split(separator: "\n").count == 1, "one sentence, not one line per attempt")
        }
    }

    @Test func explainAndAppsCommands() async throws {
        try await withTestDaemon(apps: Self.apps) { daemon in
            let environment = ["APPFLIP_SOCKET": daemon.socketPath, "NO_COLOR": "1"]
            let match = try await TestCommand.run("appflip", ["explain", "https://accept.test/x"], environment: environment)
            #expect(match.status == 0)
            #expect(match.standardOutput.hasPrefix("iOS      ✔ match: T.accept"))
            let exclude = try await TestCommand.run("appflip", ["explain", "https://accept.test/no/x", "--json"], environment: environment)
            #expect(exclude.status == 1)
            let reply = try JSONDecoder().decode(Reply.self, from: Data(exclude.standardOutput.utf8))
            guard case .success(.explain(let result)) = reply.outcome else { throw ClientExpectation.unexpected }
            #expect(result.decision == .exclude)

            let apps = try await TestCommand.run("appflip", ["apps", "--json"], environment: environment)
            #expect(apps.status == 0)
            let listed = try JSONDecoder().decode(Reply.self, from: Data(apps.standardOutput.utf8))
            guard case .success(.apps(let registry)) = listed.outcome else { throw ClientExpectation.unexpected }
            #expect(registry.apps.map(\.appID) == ["T.accept", "T.opener"])
        }
    }

    @Test func appsShowsAnAppsAndroidPackageFingerprintsAndActivities() async throws {
        let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")
        let android = AndroidIdentity(
            package: "com.example.partner",
            fingerprints: [fingerprint],
            activities: [AndroidActivity(name: ".AppFlipActivity", actions: ["com.example.partner.APP_FLIP"], exported: true)]
        )
        try await withTestDaemon(apps: [TestApp(appID: "T.android", domains: [], handler: .accept, android: android)]) { daemon in
            let apps = try await TestCommand.run("appflip", ["apps"], environment: ["APPFLIP_SOCKET": daemon.socketPath, "NO_COLOR": "1"])
            #expect(apps.status == 0)
            let lines = apps.standardOutput.split(separator: "\n").map(String.init)
            #expect(
                Array(lines.dropFirst())
                    == [
                        "  android com.example.partner",
                        "    signed by \(fingerprint)",
                        "    com.example.partner.AppFlipActivity  (exported)",
                        "      action com.example.partner.APP_FLIP",
                        "      category android.intent.category.DEFAULT",
                    ]
            )
        }
    }

    enum ClientExpectation: Error { case unexpected }
}
