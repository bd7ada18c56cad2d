import AppFlipCore
import AppFlipOAuth
import AppFlipTestSupport
import AppFlipTesting
import Foundation
import Testing
import ThirdPartyFixtures

/// The real `appflip audit` executable against the reference (the built-in partner handler and the embedded
/// server): exit statuses, the three outputs, and the JUnit file read by junitparser.
@Suite struct AuditCommandTests {
    static func arguments(_ daemon: TestDaemon, _ extra: [String]) async throws -> [String] {
        let base = try await daemon.oauthServer!.baseURL()
        return [
            "audit", "--socket", daemon.socketPath, "--link", TestPartner.link, "--client-id", TestPartner.clientID, "--scope", "profile",
            "--token-url", base + "/token", "--client-secret", TestPartner.clientSecret, "--resource-url", base + "/userinfo", "--revoke-url",
            base + "/revoke",
        ] + extra
    }

    struct Report: Decodable {
        struct Result: Decodable {
            var id: String
            var target: String
            var rule: String
            var source: String
            var outcome: String
            var reason: String
            var evidence: [String]
        }
        var results: [Result]
        var unreachable: [String]
        var exitStatus: Int32
    }

    @Test func theReferencePassesWithEveryOutput() async throws {
        try await TestPartner.run { daemon in
            let junit = daemon.directory + "/audit.xml"
            let outcome = try await TestCommand.run("appflip", try await Self.arguments(daemon, ["--json", "--junit", junit]))
            #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
            let report = try JSONDecoder().decode(Report.self, from: Data(outcome.standardOutput.utf8))
            #expect(report.results.filter { $0.outcome == "fail" || $0.outcome == "warning" }.map(\.id) == [])
            #expect(Set(report.results.map(\.id)).count == report.results.count)
            #expect(!outcome.standardOutput.contains(TestPartner.clientSecret))

            let text = try await TestCommand.run("appflip", try await Self.arguments(daemon, ["--verbose"]), environment: ["NO_COLOR": "1"])
            #expect(text.status == 0, "\(text.standardOutput)\(text.standardError)")
            #expect(
                text.standardOutput.contains(
                    "Partner app, through appflipd\n  ✔ partner.route  the flip link routes to the app — routed to \(TestPartner.appID)"
                )
            )
            #expect(text.standardOutput.contains("  – authorize.redirect-uris"))
            #expect(text.standardOutput.contains("0 failed, 0 could not run, 0 warnings, "))
            #expect(text.standardOutput.contains("      · "), "--verbose shows the evidence")

            let summary = try await PythonJUnitParser.summarize(file: junit)
            let suites = try #require(summary["suites"] as? [[String: Any]])
            #expect(suites.map { $0["name"] as? String } == AuditTarget.allCases.map(\.rawValue))
            #expect(suites.reduce(0) { $0 + ($1["tests"] as? Int ?? 0) } == report.results.count)
            #expect(suites.allSatisfy { $0["failures"] as? Int == 0 })
            let skipped = suites.flatMap { ($0["cases"] as? [[String: Any]]) ?? [] }.filter { $0["result"] as? String == "skipped" }
            #expect(skipped.map { $0["name"] as? String }.contains("authorize.redirect-uris"))
        }
    }

    @Test func aBrokenRuleIsExitTwoAndAJUnitFailureNamingTheRule() async throws {
        try await TestPartner.run { daemon in
            let junit = daemon.directory + "/audit.xml"
            let aasa = daemon.directory + "/elsewhere-aasa.json"
            try TestDirectory.write(
                #"{"applinks":{"details":[{"appIDs":["\#(TestPartner.appID)"],"components":[{"/":"/elsewhere/*"}]}]}}"#,
                to: aasa,
                mode: 0o644
            )
            let outcome = try await TestCommand.run(
                "appflip",
                try await Self.arguments(daemon, ["--aasa-file", aasa, "--app-id", TestPartner.appID, "--junit", junit]),
                environment: ["NO_COLOR": "1"]
            )
            #expect(outcome.status == 2, "\(outcome.standardOutput)\(outcome.standardError)")
            #expect(outcome.standardOutput.contains("1 failed, 0 could not run, 0 warnings"))
            #expect(outcome.standardOutput.contains("  ✘ aasa.routes-link: no rule for \(TestPartner.appID) matches \(TestPartner.link)"))

            let summary = try await PythonJUnitParser.summarize(file: junit)
            let suites = try #require(summary["suites"] as? [[String: Any]])
            let association = try #require(suites.first { $0["name"] as? String == "association-file" })
            #expect(association["failures"] as? Int == 1)
            let failed = try #require((association["cases"] as? [[String: Any]])?.first { $0["result"] as? String == "failure" })
            #expect(failed["name"] as? String == "aasa.routes-link")
            #expect((failed["message"] as? String)?.hasPrefix("no rule for \(TestPartner.appID) matches") == true)
            #expect((failed["text"] as? String)?.contains("rule: Its applinks rules send the flip link to the partner's app id.") == true)
        }
    }

    @Test func aPreconditionOutsideTheRulesIsExitOneAndAJUnitError() async throws {
        try await TestPartner.run { daemon in
            let base = try await daemon.oauthServer!.baseURL()
            let junit = daemon.directory + "/audit.xml"
            // A secret the token endpoint does not know: refused both ways, so the token checks cannot run.
            let outcome = try await TestCommand.run(
                "appflip",
                [
                    "audit", "--socket", daemon.socketPath, "--link", TestPartner.link, "--client-id", TestPartner.clientID, "--scope",
                    "profile", "--token-url", base + "/token", "--client-secret", "not-the-secret", "--junit", junit,
                ],
                environment: ["NO_COLOR": "1"]
            )
            #expect(outcome.status == 1, "\(outcome.standardOutput)\(outcome.standardError)")
            #expect(outcome.standardOutput.contains("  ! token.client-auth  "), "\(outcome.standardOutput)")
            #expect(outcome.standardOutput.contains("0 failed, 1 could not run, 0 warnings"), "\(outcome.standardOutput)")
            // The checks that needed it share one line and one reason.
            #expect(outcome.standardOutput.contains("  – token.exchange, token.json, "), "\(outcome.standardOutput)")
            #expect(!outcome.standardOutput.contains("not-the-secret"))

            let summary = try await PythonJUnitParser.summarize(file: junit)
            let suites = try #require(summary["suites"] as? [[String: Any]])
            let token = try #require(suites.first { $0["name"] as? String == "token-endpoint" })
            #expect(token["errors"] as? Int == 1)
            #expect(token["failures"] as? Int == 0)
            let error = try #require((token["cases"] as? [[String: Any]])?.first { $0["result"] as? String == "error" })
            #expect(error["name"] as? String == "token.client-auth")
            #expect((error["message"] as? String)?.hasPrefix("could not run: the token endpoint refused the client's credentials both ways") == true)
        }
    }

    @Test func usageErrorsAndAnUnreachableDaemon() async throws {
        let noScope = try await TestCommand.run("appflip", ["audit", "--link", "https://partner.test/link", "--client-id", "c"])
        #expect(noScope.status == 64)
        #expect(noScope.standardError.contains("the Google app always sends the scopes"))
        let nothing = try await TestCommand.run("appflip", ["audit"])
        #expect(nothing.status == 64)

        let unreachable = try await TestCommand.run(
            "appflip",
            ["audit", "--socket", "/nonexistent/appflipd.sock", "--link", "https://partner.test/link", "--client-id", "c", "--scope", "s"],
            environment: ["NO_COLOR": "1"]
        )
        #expect(unreachable.status == 1)
        #expect(unreachable.standardOutput.contains("unreachable: appflipd is not running at /nonexistent/appflipd.sock (no socket there)"))

        let badMethod = try await TestCommand.run(
            "appflip",
            ["audit", "--token-url", "http://127.0.0.1:9/token", "--client-id", "c", "--client-secret", "s", "--client-auth", "jwt"]
        )
        #expect(badMethod.status == 64)
        #expect(badMethod.standardError.contains("--client-auth must be post or basic"), "\(badMethod.standardError)")

        let tooMany = try await TestCommand.run(
            "appflip",
            ["audit", "--authorize-url", "http://127.0.0.1:9/authorize", "--client-id", "c", "--scope", "s", "--concurrency", "17"]
        )
        #expect(tooMany.status == 64)
        #expect(tooMany.standardError.contains("--concurrency must be 1 to 16"), "\(tooMany.standardError)")

        let slowTooShort = try await TestCommand.run(
            "appflip",
            ["audit", "--token-url", "http://127.0.0.1:9/token", "--client-id", "c", "--client-secret", "s", "--slow", "--timeout", "60"]
        )
        #expect(slowTooShort.status == 64)
        #expect(slowTooShort.standardError.contains("--slow waits 601 seconds"), "\(slowTooShort.standardError)")

        // The lifecycle options, each refused where it cannot run.
        let token = ["audit", "--token-url", "http://127.0.0.1:9/token", "--client-id", "c", "--client-secret", "s"]
        for (arguments, message) in [
            (
                ["audit", "--link", "https://partner.test/link", "--client-id", "c", "--scope", "s", "--second-client-id", "d"],
                "--second-client-id needs the token endpoint"
            ),
            (token + ["--second-client-id", "c"], "--second-client-id must be another client than --client-id"),
            (token + ["--second-client-id", "d"], "--second-client-id needs --second-client-secret-file"),
            (token + ["--refresh-chain", "0"], "--refresh-chain must be 1 to 50"),
            (token + ["--rotation-grace", "601"], "--rotation-grace must be 0 to 600 seconds"),
            (token + ["--sign-out-url", "https://partner.test/logout"], "--sign-out-url needs --authorize-url"),
            (token + ["--sign-out-method", "get"], "--sign-out-method and --sign-out-session-file go with --sign-out-url"),
        ] {
            let refused = try await TestCommand.run("appflip", arguments, environment: ["APPFLIP_SECOND_CLIENT_SECRET": ""])
            #expect(refused.status == 64, "\(arguments)")
            #expect(refused.standardError.contains(message), "\(arguments): \(refused.standardError)")
        }
    }

    @Test func theWholeRunStopsAtTimeoutAsCouldNotRun() async throws {
        // A socket that listens and never accepts: the kernel completes each connection, nothing ever answers.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0)
        #expect(listen(listener, 16) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))

        let outcome = try await TestCommand.run(
            "appflip",
            [
                "audit", "--authorize-url", "http://127.0.0.1:\(port)/authorize", "--client-id", "c", "--scope", "profile",
                "--timeout", "1", "--json",
            ]
        )
        // Each request alone may take 10 s and would end with its own "did not answer" reason: the report below
        // says the whole run's 1 s is what ended it, which no elapsed time on a loaded machine can tell as surely.
        #expect(outcome.status == 1, "\(outcome.standardOutput)\(outcome.standardError)")
        let report = try JSONDecoder().decode(Report.self, from: Data(outcome.standardOutput.utf8))
        #expect(
            report.unreachable == [
                "the audit did not finish within its whole-run timeout (--timeout, 1.0 seconds); the checks it did not finish are skipped"
            ]
        )
        #expect(report.results.first { $0.id == "authorize.redirect-uris" }?.outcome == "skipped")
    }
}
