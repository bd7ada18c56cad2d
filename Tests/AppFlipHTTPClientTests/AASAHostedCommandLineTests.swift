import AppFlipAudit
import AppFlipCore
import AppFlipTestSupport
import AppFlipTesting
import Foundation
import Testing

/// `appflip aasa fetch` and `appflip aasa check`, run as the built executable against HTTPS on 127.0.0.1.
@Suite struct AASAHostedCommandLineTests {
    static func appflip(_ arguments: [String]) async throws -> TestCommand.Outcome {
        try await TestCommand.run("appflip", ["aasa"] + arguments)
    }

    @Test func fetchWritesTheFileAsServed() async throws {
        try await HostedTestFixture.withCDNServer { fixture, server in
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
        try await HostedTestFixture.withCDNServer { fixture, server in
            let redirect = try await Self.appflip(["fetch", "redirect.example", "--cdn-base", server.cdnBase, "--ca-file", fixture.caFile])
            #expect(redirect.status == 2)
            #expect(redirect.standardError.contains("aasa.hosted-no-redirect: 301 Moved Permanently to https://www.redirect.example/"))
            let silent = try await Self.appflip([
                "fetch", "silent.example", "--cdn-base", server.cdnBase, "--ca-file", fixture.caFile, "--timeout", "1",
            ])
            #expect(silent.status == 1)
            #expect(silent.standardError.contains("could not run"))
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
        try await HostedTestFixture.withCDNServer { fixture, server in
            let base = ["check", "good.example", "--cdn-base", server.cdnBase, "--ca-file", fixture.caFile, "--app-id", HostedTestFixture.appID]
            let passed = try await Self.appflip(base + ["--url", "https://good.example/flip/42"])
            #expect(passed.status == 0, "\(passed.standardOutput)\(passed.standardError)")
            #expect(passed.standardOutput.contains("✔ aasa.url-decision https://good.example/flip/42: match by /applinks/details/0/components/0"))

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
            #expect(try HostedTestFixture.column(failed.standardOutput, "checks", "rule", status: "failed") == ["aasa.url-decision", "aasa.drift"])

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
            #expect(parsed.standardOutput == "1 \(checks.count) aasa.url-decision,aasa.drift\n", "\(parsed.standardError)")
        }
    }

    @Test func checkCannotRunWithAnUnreadableCommittedFileOrAnUnansweringHost() async throws {
        try await HostedTestFixture.withCDNServer { fixture, server in
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

    /// One rule, one id: every iOS rule the audit reports stands under the same id in `aasa check --json` and in
    /// `appflip audit --json` (the reference partner app through a real appflipd), and `aasa check` names the rest.
    @Test func eachRuleHasOneIDInCheckAndAudit() async throws {
        let file = Array(#"{"applinks":{"details":[{"appIDs":["\#(TestPartner.appID)"],"components":[{"/":"/link/*"}]}]}}"#.utf8)
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let identity = try fixture.authority.serverIdentity(for: ["localhost"])
        let routes: @Sendable (String) -> TestHTTPResponse? = { $0 == "/a/v1/partner.test" ? .file(file) : nil }
        try await TestHTTPSServer.with(identity: identity, routes: routes) { server in
            let fetch = ["--cdn-base", server.cdnBase, "--ca-file", fixture.caFile, "--app-id", TestPartner.appID]
            let check = try await Self.appflip(["check", "partner.test", "--url", TestPartner.link, "--json"] + fetch)
            #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
            let checked = try HostedTestFixture.column(check.standardOutput, "checks", "rule")
            #expect(checked == HostedRule.aasa.dropLast().map(\.id), "\(checked)")
            try await TestPartner.run { daemon in
                let audit = try await TestCommand.run(
                    "appflip",
                    ["audit", "--socket", daemon.socketPath, "--link", TestPartner.link, "--client-id", TestPartner.clientID]
                        + ["--scope", "profile", "--aasa-domain", "partner.test", "--json"] + fetch
                )
                #expect(audit.status == 0, "\(audit.standardOutput)\(audit.standardError)")
                let audited = try HostedTestFixture.column(audit.standardOutput, "results", "id").filter { $0.hasPrefix("aasa.") }
                let shared = checked.filter { AuditCatalogue.spec(id: $0) != nil }
                #expect(shared == HostingPolicy.aasa.rules.all.map(\.id) + ["aasa.valid"])
                #expect(shared.allSatisfy(audited.contains), "\(audited)")
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
