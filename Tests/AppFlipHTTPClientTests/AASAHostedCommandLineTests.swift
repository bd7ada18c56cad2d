import AppFlipCore
import AppFlipTestSupport
import AppFlipTesting
import Foundation
import Testing

/// `appflip aasa fetch` and `appflip aasa check`, run as the built executable against HTTPS on 127.0.0.1.
@Suite struct AASAHostedCommandLineTests {
    static func withServer(_ body: (HostedTestFixture, TestHTTPSServer) async throws -> Void) async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let identity = try fixture.authority.serverIdentity(for: ["localhost"])
        try await TestHTTPSServer.with(identity: identity, routes: HostedTestFixture.cdnRoutes) { server in
            try await body(fixture, server)
        }
    }

    static func appflip(_ arguments: [String]) async throws -> TestCommand.Outcome {
        try await TestCommand.run("appflip", ["aasa"] + arguments)
    }

    @Test func fetchWritesTheFileAsServed() async throws {
        try await Self.withServer { fixture, server in
            let output = fixture.directory.appendingPathComponent("fetched.json").path
            let run = try await Self.appflip(["fetch", "good.example", "--cdn-base", server.cdnBase, "--ca-file", fixture.caFile, "-o", output])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: output))) == HostedTestFixture.file)
            let direct = try await Self.appflip([
                "fetch", "localhost?mode=developer", "--port", "\(server.port)", "--ca-file", fixture.caFile,
            ])
            #expect(direct.status == 0, "\(direct.standardError)")
            #expect(Array(direct.standardOutput.utf8) == HostedTestFixture.file)
        }
    }

    @Test func fetchExitsTwoNamingTheRuleAndOneWhenItCannotRun() async throws {
        try await Self.withServer { fixture, server in
            let redirect = try await Self.appflip(["fetch", "redirect.example", "--cdn-base", server.cdnBase, "--ca-file", fixture.caFile])
            #expect(redirect.status == 2)
            #expect(redirect.standardError.contains("hosting.no-redirect: 301 Moved Permanently to https://www.redirect.example/"))
            let silent = try await Self.appflip([
                "fetch", "silent.example", "--cdn-base", server.cdnBase, "--ca-file", fixture.caFile, "--timeout", "1",
            ])
            #expect(silent.status == 1)
            #expect(silent.standardError.contains("hosting.reachable"))
        }
    }

    @Test(arguments: [
        ["fetch", "*.example.com"],
        ["fetch", "example.com", "--port", "8443"],
        ["check", "example.com"],
        ["check", "example.com", "--app-id", "A.b", "--url", "not a url"],
    ])
    func aWrongCommandLineExits64(arguments: [String]) async throws {
        let run = try await Self.appflip(arguments)
        #expect(run.status == 64, "\(run.standardError)")
    }

    @Test func checkPassesAndFailsByRuleWithJSONAndJUnit() async throws {
        try await Self.withServer { fixture, server in
            let base = ["check", "good.example", "--cdn-base", server.cdnBase, "--ca-file", fixture.caFile, "--app-id", HostedTestFixture.appID]
            let passed = try await Self.appflip(base + ["--url", "https://good.example/flip/42"])
            #expect(passed.status == 0, "\(passed.standardOutput)\(passed.standardError)")
            #expect(passed.standardOutput.contains("✔ url.decision https://good.example/flip/42: match by /applinks/details/0/components/0"))

            let junit = fixture.directory.appendingPathComponent("aasa.xml").path
            let committed = fixture.directory.appendingPathComponent("committed.json").path
            try Data(#"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.partner"],"components":[{"/":"/*"}]}]}}"#.utf8)
                .write(to: URL(fileURLWithPath: committed))
            let failed = try await Self.appflip(
                base + ["--url", "https://good.example/help/1", "--compare", committed, "--json", "--junit", junit]
            )
            #expect(failed.status == 2, "\(failed.standardError)")
            let report = try JSONValue(parsing: Array(failed.standardOutput.utf8))
            guard case .object(let members) = report, case .array(let checks)? = members["checks"] else {
                Issue.record("not a report: \(failed.standardOutput)")
                return
            }
            #expect(members["passed"] == .bool(false))
            let failedRules = checks.compactMap { check -> String? in
                guard case .object(let fields) = check, fields["status"] == .string("failed"), case .string(let rule)? = fields["rule"] else {
                    return nil
                }
                return rule
            }
            #expect(failedRules == ["url.decision", "drift"])

            // A real XML parser reads the JUnit file: one testsuite, one testcase per check, two failures.
            let parsed = try await TestCommandRunner.run(
                "/usr/bin/env",
                [
                    "python3", "-c",
                    """
                    import sys, xml.etree.ElementTree as E
                    root = E.parse(sys.argv[1]).getroot()
                    suites = root.findall('testsuite')
                    cases = suites[0].findall('testcase')
                    print(len(suites), len(cases), ','.join(f.get('type') for c in cases for f in c.findall('failure')))
                    """,
                    junit,
                ]
            )
            #expect(parsed.standardOutput == "1 \(checks.count) url.decision,drift\n", "\(parsed.standardError)")
        }
    }

    @Test func checkCannotRunWithAnUnreadableCommittedFileOrAnUnansweringHost() async throws {
        try await Self.withServer { fixture, server in
            let missing = try await Self.appflip([
                "check", "good.example", "--cdn-base", server.cdnBase, "--ca-file", fixture.caFile, "--app-id", "A.b",
                "--compare", "/nonexistent/aasa.json",
            ])
            #expect(missing.status == 1)
            let silent = try await Self.appflip([
                "check", "silent.example", "--cdn-base", server.cdnBase, "--ca-file", fixture.caFile, "--app-id", "A.b", "--timeout", "1",
            ])
            #expect(silent.status == 1)
            #expect(silent.standardOutput.contains("could not run"))
        }
    }

    /// `appflip audit --aasa-domain` fetches with `aasa check`'s options and exits 0 or 2 by the hosting rules: the
    /// reference partner app through a real appflipd, its domain's file served as JSON under `/a/v1/` and as
    /// `text/html` under `/html/v1/`.
    @Test func auditChecksTheHostedFileWithTheSameOptions() async throws {
        let file = Array(#"{"applinks":{"details":[{"appIDs":["\#(TestPartner.appID)"],"components":[{"/":"/link/*"}]}]}}"#.utf8)
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let identity = try fixture.authority.serverIdentity(for: ["localhost"])
        let routes: @Sendable (String) -> TestHTTPResponse? = { path in
            switch path {
            case "/a/v1/partner.test": .file(file)
            case "/html/v1/partner.test": .file(file, contentType: "text/html")
            default: nil
            }
        }
        try await TestHTTPSServer.with(identity: identity, routes: routes) { server in
            try await TestPartner.run { daemon in
                func audit(cdnBase: String) async throws -> TestCommand.Outcome {
                    try await TestCommand.run(
                        "appflip",
                        [
                            "audit", "--socket", daemon.socketPath, "--link", TestPartner.link, "--client-id", TestPartner.clientID, "--scope",
                            "profile", "--aasa-domain", "partner.test", "--app-id", TestPartner.appID, "--cdn-base", cdnBase, "--ca-file",
                            fixture.caFile,
                        ],
                        environment: ["NO_COLOR": "1"]
                    )
                }
                let good = try await audit(cdnBase: server.cdnBase)
                #expect(good.status == 0, "\(good.standardOutput)\(good.standardError)")
                #expect(good.standardOutput.contains("✔ aasa.hosted-content-type"), "\(good.standardOutput)")
                #expect(good.standardOutput.contains("✔ aasa.routes-link"), "\(good.standardOutput)")
                let html = try await audit(cdnBase: "https://localhost:\(server.port)/html/v1")
                #expect(html.status == 2, "\(html.standardOutput)\(html.standardError)")
                #expect(html.standardOutput.contains("✘ aasa.hosted-content-type"), "\(html.standardOutput)")
                #expect(html.standardOutput.contains("1 failed, 0 could not run, 0 warnings"), "\(html.standardOutput)")
            }
        }
    }

    @Test(arguments: [
        ["--link", "https://a.example/x", "--aasa-domain", "a.example"],
        ["--link", "https://a.example/x", "--aasa-file", "f", "--aasa-domain", "a.example", "--app-id", "A.b"],
        ["--link", "https://a.example/x", "--aasa-file", "f", "--app-id", "A.b", "--ca-file", "ca.pem"],
        ["--link", "https://a.example/x", "--aasa-domain", "a.example", "--app-id", "A.b", "--port", "8443"],
    ])
    func aWrongAuditCommandLineExits64(arguments: [String]) async throws {
        let run = try await TestCommand.run("appflip", ["audit"] + arguments)
        #expect(run.status == 64, "\(run.standardError)")
    }
}
