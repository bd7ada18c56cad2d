import AppFlipCore
import AppFlipOAuth
import AppFlipTestSupport
import AppFlipTesting
import Foundation
import Testing
import ThirdPartyFixtures

/// `appflip audit --har`, `--json-file` and `--summary-markdown` from the real executable: the archive of a real
/// audit against the reference and against a matrix server validates against HAR 1.2's schema and loads in
/// haralyzer, holds none of the run's secrets in any encoding, and ties each finding to its entries both ways;
/// a failing audit's summary renders as GFM with its table and the failure's rule.
@Suite(.slow) struct AuditCIOutputTests {
    /// The JSON report's members these tests read.
    struct Report: Decodable {
        struct Result: Decodable {
            var id: String
            var outcome: String
            var rule: String
            var exchanges: [Int]
        }
        struct Exchange: Decodable {
            var id: Int
            var kind: String
            var purpose: String
            var operation: String?
            var endpoint: String?
            var findings: [String]
        }
        var results: [Result]
        var exchanges: [Exchange]
        var exitStatus: Int32
    }

    /// The files of one run, in a directory of their own.
    struct Outputs {
        let directory: String
        var har: String { directory + "/audit.har" }
        var json: String { directory + "/audit.json" }
        var summary: String { directory + "/summary.md" }
        var arguments: [String] { ["--har", har, "--json-file", json, "--summary-markdown", summary] }

        func report() throws -> Report {
            try JSONDecoder().decode(Report.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
        }
    }

    static func withOutputs<Result>(_ body: (Outputs) async throws -> Result) async throws -> Result {
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        return try await body(Outputs(directory: directory))
    }

    /// The archive validates and loads, holds no secret the proxy saw, and agrees with the JSON report: the same
    /// HTTP exchanges in the same order, and each finding's entries naming it back.
    static func checkArchive(_ outputs: Outputs, secretsFile: String, extraSecrets: [String] = []) async throws -> Report {
        let secrets = try String(contentsOfFile: secretsFile, encoding: .utf8).split(separator: "\n").map(String.init) + extraSecrets
        #expect(secrets.count > 5, "the proxy saw \(secrets.count) secrets")
        let allSecrets = outputs.directory + "/secrets"
        try TestDirectory.write(secrets.joined(separator: "\n") + "\n", to: allSecrets, mode: 0o600)
        let checked = try await PythonCITools.checkHAR(file: outputs.har, secretsFile: allSecrets)
        #expect(checked["schemaErrors"] as? [String] == [], "\(checked["schemaErrors"] ?? "")")
        #expect(checked["secretsFound"] as? [[String: Any]] != nil)
        #expect((checked["secretsFound"] as? [[String: Any]])?.isEmpty == true, "\(checked["secretsFound"] ?? "")")
        for file in [outputs.json, outputs.summary] {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(!secrets.contains { text.contains($0) }, "\(file) holds a secret")
        }

        let report = try outputs.report()
        let read = try #require(checked["reader"] as? [[String: Any]])
        let entries = try #require(checked["entries"] as? [[String: Any]])
        let http = report.exchanges.filter { $0.kind == "http" }
        #expect(read.count == http.count && !http.isEmpty, "haralyzer read \(read.count) of \(http.count) entries")
        #expect(entries.map { $0["exchange"] as? Int } == http.map(\.id))
        #expect(report.exchanges.map(\.id) == report.exchanges.map(\.id).sorted())
        #expect(Set(report.exchanges.map(\.id)).count == report.exchanges.count)
        // Both ways: a result's exchanges name it back, in the JSON and in the archive.
        let byID = Dictionary(uniqueKeysWithValues: report.exchanges.map { ($0.id, $0) })
        for result in report.results {
            for id in result.exchanges {
                #expect(byID[id]?.findings.contains(result.id) == true, "\(result.id) refers to #\(id), which does not name it back")
            }
        }
        for exchange in report.exchanges {
            for finding in exchange.findings {
                #expect(report.results.first { $0.id == finding }?.exchanges.contains(exchange.id) == true)
            }
        }
        for entry in entries {
            let id = try #require(entry["exchange"] as? Int)
            #expect(entry["findings"] as? [String] == byID[id]?.findings, "#\(id)")
        }
        for finding in try #require(checked["findings"] as? [[String: Any]]) {
            let id = try #require(finding["id"] as? String)
            let own = Set(report.results.first { $0.id == id }?.exchanges ?? [])
            #expect(Set(finding["entries"] as? [Int] ?? []).isSubset(of: own), "\(id)")
        }
        return report
    }

    @Test func theReferenceArchiveValidatesLoadsAndHoldsNoSecret() async throws {
        try await TestPartner.run { daemon in
            let upstream = try await daemon.oauthServer!.baseURL()
            try await PythonCITools.withRecordingProxy(to: upstream) { proxy, secretsFile in
                try await Self.withOutputs { outputs in
                    let secretFile = outputs.directory + "/client-secret"
                    try TestDirectory.write(TestPartner.clientSecret + "\n", to: secretFile, mode: 0o600)
                    let outcome = try await TestCommand.run(
                        "appflip",
                        [
                            "audit", "--socket", daemon.socketPath, "--link", TestPartner.link, "--client-id", TestPartner.clientID,
                            "--scope", "profile", "--scope", "devices", "--token-url", proxy + "/token", "--client-secret-file", secretFile,
                            "--resource-url", proxy + "/userinfo", "--revoke-url", proxy + "/revoke",
                        ] + outputs.arguments,
                        environment: ["NO_COLOR": "1"]
                    )
                    #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
                    let report = try await Self.checkArchive(outputs, secretsFile: secretsFile, extraSecrets: [TestPartner.clientSecret])

                    // The partner app's side is in the JSON, in the same sequence: the flips' opens.
                    let handoffs = report.exchanges.filter { $0.kind == "handoff" }
                    #expect(handoffs.count > 20 && handoffs.allSatisfy { $0.operation == "open" })
                    let route = try #require(report.results.first { $0.id == "partner.route" })
                    #expect(route.exchanges.contains { id in handoffs.contains { $0.id == id } }, "\(route.exchanges)")
                    // A check's own requests are its entries: the refresh chain's refreshes, five by --refresh-chain's default.
                    let chain = try #require(report.results.first { $0.id == "token.refresh-chain" })
                    let refreshes = report.exchanges.filter { $0.purpose.hasPrefix("token.refresh-chain: refresh ") && $0.endpoint == "token" }
                    #expect(refreshes.count == 5 && Set(refreshes.map(\.id)).isSubset(of: Set(chain.exchanges)), "\(chain.exchanges)")
                    // The summary of a passing audit: the counts, nothing failed, the rest collapsed.
                    let rendered = try await PythonCITools.renderSummary(file: outputs.summary)
                    #expect((rendered["details"] as? [String])?.contains { $0.contains("passed") } == true, "\(rendered["details"] ?? "")")
                }
            }
        }
    }

    /// One server of the real-server matrix (Authlib's Flask server as a careful partner ships it), every target
    /// a server has, through the proxy: its authorization endpoint with the user's cookie as well.
    @Test(.timeLimit(.minutes(5))) func aMatrixServersArchiveValidatesLoadsAndHoldsNoSecret() async throws {
        let clientID = "appflip-har-client"
        let clientSecret = "har-matrix-secret-0123456789abcdef"
        let password = "har-matrix-password-42"
        try await MatrixOAuthServer.run(
            .authlib,
            .careful,
            clientID: clientID,
            clientSecret: clientSecret,
            scopes: ["profile"],
            password: password,
            lifetimeSeconds: 300
        ) { server in
            let cookie = try await server.signIn()
            try await PythonCITools.withRecordingProxy(to: server.baseURL) { proxy, secretsFile in
                try await Self.withOutputs { outputs in
                    let secretFile = outputs.directory + "/client-secret"
                    let cookieFile = outputs.directory + "/cookie"
                    try TestDirectory.write(clientSecret, to: secretFile, mode: 0o600)
                    try TestDirectory.write(cookie, to: cookieFile, mode: 0o600)
                    let outcome = try await TestCommand.run(
                        "appflip",
                        [
                            "audit", "--client-id", clientID, "--scope", "profile", "--authorize-url", proxy + "/oauth/authorize",
                            "--cookie-file", cookieFile, "--token-url", proxy + "/oauth/token", "--client-secret-file", secretFile,
                            "--resource-url", proxy + "/api/me", "--revoke-url", proxy + "/oauth/revoke",
                        ] + outputs.arguments,
                        environment: ["NO_COLOR": "1"]
                    )
                    #expect(outcome.status != 64 && outcome.status != nil, "\(outcome.standardOutput)\(outcome.standardError)")
                    let cookieValues = cookie.split(separator: ";").compactMap { $0.split(separator: "=", maxSplits: 1).last.map(String.init) }
                    let report = try await Self.checkArchive(
                        outputs,
                        secretsFile: secretsFile,
                        extraSecrets: [clientSecret, password] + cookieValues
                    )
                    // The authorization endpoint's requests are entries too, and its checks refer to them.
                    let authorize = report.exchanges.filter { $0.endpoint == "authorization" }
                    #expect(authorize.count > 10)
                    let lookalike = try #require(report.results.first { $0.id == "authorize.lookalike-redirect" })
                    #expect(!lookalike.exchanges.isEmpty && lookalike.exchanges.allSatisfy { id in authorize.contains { $0.id == id } })
                }
            }
        }
    }

    @Test func aFailingAuditsSummaryRendersItsTableAndTheFailuresRule() async throws {
        try await TestPartner.run { daemon in
            try await Self.withOutputs { outputs in
                let aasa = outputs.directory + "/elsewhere-aasa.json"
                try TestDirectory.write(
                    #"{"applinks":{"details":[{"appIDs":["\#(TestPartner.appID)"],"components":[{"/":"/elsewhere/*"}]}]}}"#,
                    to: aasa,
                    mode: 0o644
                )
                let outcome = try await TestCommand.run(
                    "appflip",
                    try await AuditCommandTests.arguments(daemon, ["--aasa-file", aasa, "--app-id", TestPartner.appID] + outputs.arguments),
                    environment: ["NO_COLOR": "1"]
                )
                #expect(outcome.status == 2, "\(outcome.standardOutput)\(outcome.standardError)")
                let report = try outputs.report()
                let failed = report.results.filter { $0.outcome == "fail" }
                let first = try #require(failed.first)
                #expect(first.id == "aasa.routes-link")

                let rendered = try await PythonCITools.renderSummary(file: outputs.summary)
                let table = try #require((rendered["tables"] as? [[String: Any]])?.first)
                #expect(table["header"] as? [String] == ["✘ failed", "! could not run", "⚠ warnings", "✔ passed", "– skipped"])
                let counts = try #require((table["rows"] as? [[String]])?.first)
                #expect(counts.first == "\(failed.count)")
                #expect(counts.map { Int($0) ?? -1 }.reduce(0, +) == report.results.count, "\(counts)")
                let headings = rendered["headings"] as? [String] ?? []
                #expect(headings.first == "appflip audit: a rule failed")
                #expect(headings.dropFirst().first?.hasPrefix("✘ aasa.routes-link: ") == true, "\(headings)")
                let html = try #require(rendered["html"] as? String)
                let rule = first.rule.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                    .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
                #expect(html.contains(rule), "the rendered summary does not hold the rule \(first.rule)")
                #expect((rendered["bytes"] as? Int ?? .max) < 1024 * 1024)
            }
        }
    }
}
