import AppFlipAudit
import AppFlipCore
import AppFlipTestSupport
import AppFlipTesting
import Foundation
import Testing

/// `appflip assetlinks fetch` and `appflip assetlinks check`, run as the built executable against HTTPS on 127.0.0.1.
@Suite struct AssetLinksCommandLineTests {
    typealias Server = AssetLinksTestServer

    static func appflip(_ arguments: [String]) async throws -> TestCommand.Outcome {
        try await TestCommand.run("appflip", ["assetlinks"] + arguments)
    }

    static func app(_ fixture: HostedTestFixture, _ server: TestHTTPSServer) -> [String] {
        ["--package", Server.package, "--fingerprint", Server.fingerprint, "--ca-file", fixture.caFile, "--port", "\(server.port)"]
    }

    @Test func fetchPrintsTheFileAndWhatTheFetchSaw() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        try await Server.with(.include, fixture: fixture) { server in
            let run = try await Self.appflip(["fetch", "localhost", "--ca-file", fixture.caFile, "--port", "\(server.port)"])
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.hasPrefix(#"[{"include":"#))
            #expect(run.standardError.contains("https://localhost:\(server.port)/.well-known/assetlinks.json: 200, Content-Type application/json"))
            #expect(run.standardError.contains("https://localhost:\(server.port)/include.json: 200"))
        }
        try await Server.with(.movedPermanently, fixture: fixture) { server in
            let run = try await Self.appflip(["fetch", "localhost", "--ca-file", fixture.caFile, "--port", "\(server.port)"])
            #expect(run.status == 2)
            #expect(run.standardError.contains("301, Location https://www.localhost/.well-known/assetlinks.json"))
        }
    }

    @Test func checkExitsByRuleWithJSONAndJUnit() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        try await Server.with(.good, fixture: fixture) { server in
            let run = try await Self.appflip(["check", "localhost"] + Self.app(fixture, server))
            #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
            #expect(run.standardOutput.contains("✔ assetlinks.statement-service-verifies"))
            #expect(run.standardOutput.contains("statement-service android-15: verified"))
        }
        try await Server.with(.mistakeBeside, fixture: fixture) { server in
            let junit = fixture.directory.appendingPathComponent("assetlinks.xml").path
            let run = try await Self.appflip(["check", "localhost", "--json", "--junit", junit] + Self.app(fixture, server))
            #expect(run.status == 2, "\(run.standardError)")
            let report = try JSONValue(parsing: Array(run.standardOutput.utf8))
            guard case .object(let members) = report, case .array? = members["checks"],
                case .array(let diagnostics)? = members["diagnostics"]
            else {
                Issue.record("not a report: \(run.standardOutput)")
                return
            }
            #expect(members["passed"] == .bool(false))
            #expect(try HostedTestFixture.column(run.standardOutput, "checks", "rule", status: "failed") == ["assetlinks.valid"])
            // The lower-case fingerprint is named as what it is, with its line and column.
            let lowercase = diagnostics.first { diagnostic in
                guard case .object(let fields) = diagnostic else { return false }
                return fields["code"] == .string("DAL052") && fields["line"] == .number(1) && fields["column"] != .null
                    && fields["apiErrorCode"] == .string("ERROR_CODE_MALFORMED_CONTENT")
            }
            #expect(lowercase != nil, "\(diagnostics)")
            // The Digital Asset Links API's answer for the same file.
            #expect(
                members["digitalAssetLinksAPI"]
                    == .object([
                        "outcome": .string("FETCH_ERROR"), "errorCode": .array([.string("ERROR_CODE_MALFORMED_CONTENT")]), "notJudged": .array([]),
                    ])
            )
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(xml.contains(#"<failure message="assetlinks.valid: "#))
        }
        // The text names the API's codes beside the diagnostics.
        try await Server.with(.mistakeBeside, fixture: fixture) { server in
            let run = try await Self.appflip(["check", "localhost"] + Self.app(fixture, server))
            #expect(run.standardOutput.contains("Digital Asset Links API: FETCH_ERROR ERROR_CODE_MALFORMED_CONTENT\n"), "\(run.standardOutput)")
            #expect(run.standardOutput.contains("error DAL052: "), "\(run.standardOutput)")
            #expect(run.standardOutput.contains(" [ERROR_CODE_MALFORMED_CONTENT]\n"), "\(run.standardOutput)")
        }
        try await Server.with(.textPlain, fixture: fixture) { server in
            let run = try await Self.appflip(["check", "localhost"] + Self.app(fixture, server))
            #expect(run.standardOutput.contains("Digital Asset Links API: FETCH_ERROR ERROR_CODE_WRONG_CONTENT_TYPE\n"), "\(run.standardOutput)")
        }
    }

    /// A statement list sent chunked past 1 MiB is checked, not refused: the size rule fails, and
    /// StatementService's verdict on Android 12+, which reads it whole, is its own (exit status 2, not 1).
    @Test func checkJudgesALargeChunkedBody() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        try await Server.with(.largeChunked, fixture: fixture) { server in
            let run = try await Self.appflip(["check", "localhost"] + Self.app(fixture, server))
            #expect(run.status == 2, "\(run.standardOutput)\(run.standardError)")
            #expect(run.standardOutput.contains("✘ assetlinks.hosted-size"), "\(run.standardOutput)")
            #expect(run.standardOutput.contains("✔ assetlinks.statement-service-verifies"), "\(run.standardOutput)")
            #expect(run.standardOutput.contains("statement-service android-11: none"), "\(run.standardOutput)")
        }
    }

    @Test func checkComparesWithACommittedFile() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let committed = fixture.directory.appendingPathComponent("assetlinks.json").path
        try Data(Server.file).write(to: URL(fileURLWithPath: committed))
        try await Server.with(.good, fixture: fixture) { server in
            let same = try await Self.appflip(["check", "localhost", "--compare", committed] + Self.app(fixture, server))
            #expect(same.status == 0, "\(same.standardOutput)")
            #expect(same.standardOutput.contains("✔ assetlinks.drift"))
        }
        try await Server.with(.otherFingerprint, fixture: fixture) { server in
            let drifted = try await Self.appflip(["check", "localhost", "--compare", committed, "--json"] + Self.app(fixture, server))
            #expect(drifted.status == 2)
            guard case .object(let members) = try JSONValue(parsing: Array(drifted.standardOutput.utf8)),
                case .object(let drift)? = members["drift"]
            else {
                Issue.record("no drift: \(drifted.standardOutput)")
                return
            }
            #expect(drift["vanished"] == .array([.string("\(Server.package) \(Server.fingerprint)")]))
        }
    }

    @Test func aLocalFileIsCheckedWithoutTheHostingRules() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let file = fixture.directory.appendingPathComponent("assetlinks.json").path
        try Data(Server.file).write(to: URL(fileURLWithPath: file))
        let run = try await Self.appflip(["check", "--file", file, "--package", Server.package, "--fingerprint", Server.fingerprint])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(!run.standardOutput.contains("hosted-"))
        let other = try await Self.appflip(["check", "--file", file, "--package", "com.example.other", "--fingerprint", Server.fingerprint])
        #expect(other.status == 2)
        #expect(other.standardOutput.contains("✘ assetlinks.delegates: no statement names com.example.other"))
        // A lower-case fingerprint: DAL052 in assetlinks.valid, and the delegation says the package is named with it.
        try Data("[\(Server.statement(fingerprint: Server.fingerprint.lowercased()))]".utf8).write(to: URL(fileURLWithPath: file))
        let lowercase = try await Self.appflip(["check", "--file", file, "--package", Server.package, "--fingerprint", Server.fingerprint])
        #expect(lowercase.status == 2)
        #expect(lowercase.standardOutput.contains("error DAL052"), "\(lowercase.standardOutput)")
        #expect(lowercase.standardOutput.contains("✘ assetlinks.delegates: \(Server.package) is named with \(Server.fingerprint.lowercased())"))
    }

    /// `--url`: on Android 15 the delegating statement's dynamic rules decide each link of the host, one
    /// `assetlinks.url-decision` check per URL, naming the rule.
    @Test func eachURLIsDecidedByTheDynamicRules() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let file = fixture.directory.appendingPathComponent("assetlinks.json").path
        let statement = #"""
            [{"relation":["delegate_permission/common.handle_all_urls"],
              "target":{"namespace":"android_app","package_name":"\#(Server.package)","sha256_cert_fingerprints":["\#(Server.fingerprint)"]},
              "relation_extensions":{"delegate_permission/common.handle_all_urls":{"dynamic_app_link_components":[
                {"/":"/link/internal/*","exclude":true},{"/":"/link/*"}]}}}]
            """#
        try Data(statement.utf8).write(to: URL(fileURLWithPath: file))
        let app = ["check", "partner.test", "--file", file, "--package", Server.package, "--fingerprint", Server.fingerprint]
        let allowed = try await Self.appflip(app + ["--url", "https://partner.test/link/flip"])
        #expect(allowed.status == 0, "\(allowed.standardOutput)\(allowed.standardError)")
        #expect(allowed.standardOutput.contains("✔ assetlinks.url-decision https://partner.test/link/flip: allowed by the dynamic rule at"))
        let refused = try await Self.appflip(
            app + ["--url", "https://partner.test/link/internal/x", "--url", "https://partner.test/other", "--url", "https://other.test/link/a"]
        )
        #expect(refused.status == 2)
        let output = refused.standardOutput
        #expect(output.contains("✘ assetlinks.url-decision https://partner.test/link/internal/x: excluded by the dynamic rule at"), "\(output)")
        #expect(output.contains("✘ assetlinks.url-decision https://partner.test/other: no dynamic rule matches it"), "\(output)")
        #expect(
            output.contains(
                "✘ assetlinks.url-decision https://other.test/link/a: https://other.test/link/a is not an http or https link of partner.test"
            )
        )
        #expect(output.contains("3 of 7 checks failed"), "\(output)")
    }

    @Test func checkCannotRunWhenTheHostDoesNotAnswer() async throws {
        let run = try await Self.appflip([
            "check", "localhost", "--package", Server.package, "--fingerprint", Server.fingerprint, "--port", "1", "--timeout", "5",
        ])
        #expect(run.status == 1, "\(run.standardOutput)")
        #expect(run.standardOutput.contains("could not run"))
    }

    /// `appflip audit --assetlinks-domain` fetches as `assetlinks check` does (--ca-file, --port) and exits by
    /// the same checks; the other targets are skipped.
    @Test func auditChecksTheHostedFile() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        try await Server.with(.textPlain, fixture: fixture) { server in
            let run = try await TestCommand.run(
                "appflip",
                ["audit", "--assetlinks-domain", "localhost", "--json", "--android-package"] + Self.app(fixture, server).dropFirst(1)
            )
            #expect(run.status == 2, "\(run.standardOutput)\(run.standardError)")
            guard case .object(let members) = try JSONValue(parsing: Array(run.standardOutput.utf8)), case .array(let results)? = members["results"]
            else {
                Issue.record("not a report: \(run.standardOutput)")
                return
            }
            let failed = results.compactMap { result -> String? in
                guard case .object(let fields) = result, fields["outcome"] == .string("fail"), case .string(let id)? = fields["id"] else {
                    return nil
                }
                return id
            }
            #expect(failed == ["assetlinks.hosted-content-type"])
        }
        let usage = try await TestCommand.run("appflip", ["audit", "--assetlinks-domain", "localhost", "--android-package", Server.package])
        #expect(usage.status == 64, "\(usage.standardError)")
        let stray = try await TestCommand.run(
            "appflip",
            ["audit", "--aasa-file", "x.json", "--app-id", "A.b", "--link", "https://a.test/", "--android-package", Server.package]
        )
        #expect(stray.status == 64, "\(stray.standardError)")
    }

    /// One rule, one id: every Android rule the audit reports stands under the same id in `assetlinks check
    /// --json` and in `appflip audit --json`.
    @Test func eachRuleHasOneIDInCheckAndAudit() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        try await Server.with(.good, fixture: fixture) { server in
            let check = try await Self.appflip(["check", "localhost", "--json"] + Self.app(fixture, server))
            #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
            let checked = try HostedTestFixture.column(check.standardOutput, "checks", "rule")
            let audit = try await TestCommand.run(
                "appflip",
                ["audit", "--assetlinks-domain", "localhost", "--json", "--android-package"] + Self.app(fixture, server).dropFirst(1)
            )
            #expect(audit.status == 0, "\(audit.standardOutput)\(audit.standardError)")
            let audited = try HostedTestFixture.column(audit.standardOutput, "results", "id").filter { $0.hasPrefix("assetlinks.") }
            let expected = AssetLinksRule.allCases.map(\.rawValue).filter { AuditCatalogue.spec(id: $0) != nil }
            #expect(checked == expected, "\(checked)")
            #expect(audited.sorted() == expected.sorted(), "\(audited)")
        }
    }

    @Test(arguments: [
        ["check", "localhost"],
        ["check", "--package", "com.example.partner", "--fingerprint", Server.fingerprint],
        ["check", "https://example.com/", "--package", "com.example.partner", "--fingerprint", Server.fingerprint],
        ["check", "example.com", "--package", "com.example.partner", "--fingerprint", Server.fingerprint.lowercased()],
        ["check", "example.com", "--package", "1com", "--fingerprint", Server.fingerprint],
        ["fetch", "example.com/path"],
    ])
    func aWrongCommandLineExits64(arguments: [String]) async throws {
        let run = try await Self.appflip(arguments)
        #expect(run.status == 64, "\(run.standardError)")
    }
}
