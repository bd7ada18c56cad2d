import AppFlipCore
import AppFlipTesting
import FoundationEssentials
import Testing

@testable import AppFlipAudit

/// The report files' own rules, on reports made here: which exchanges a result refers to, the Markdown
/// summary's escaping and its bound, and the HAR's URLs.
@Suite struct AuditReportFilesTests {
    static func exchange(_ id: Int, _ purpose: String, endpoint: RecordedExchange.Endpoint = .token) -> RecordedExchange {
        RecordedExchange(
            id: id,
            endpoint: endpoint,
            purpose: purpose,
            request: .init(method: "POST", url: "https://partner.example/token", headers: [], form: []),
            response: .init(status: 200, httpVersion: "HTTP/1.1", headers: [], body: "{}", bodySize: 2),
            failure: nil,
            started: .milliseconds(id),
            duration: .milliseconds(3)
        )
    }

    @Test func aResultRefersToTheExchangesItNamesAndThoseSentForIt() {
        let exchanges = [
            Self.exchange(1, "association-file: https://partner.example/.well-known/apple-app-site-association", endpoint: .hostedFile),
            Self.exchange(2, "token.refresh-chain: refresh 1"),
            Self.exchange(3, "token.client-auth, token.exchange: client_secret_post"),
            Self.exchange(4, "authorize.sign-in (following the server's own redirect)", endpoint: .authorization),
            Self.exchange(5, "a fresh code"),
            Self.exchange(6, "token.refresh-chainx: not this check"),
        ]
        let results = [
            AuditResult(.tokenRefreshChain, .fail, "#5 HTTP 400", evidence: ["refresh 2: #5 HTTP 400 (#6 too), not #99, nor …/a#7"]),
            AuditResult(.tokenExchange, .pass, "tokens issued"),
            AuditResult(.authorizeSignIn, .pass, "signed in"),
            AuditResult(.associationValid, .pass, "valid"),
            AuditResult(.associationRoutesLink, .skipped, "not loaded"),
        ]
        let referred = ExchangeReferences(exchanges, []).attached(to: results)
        #expect(referred.map(\.exchanges) == [[2, 5, 6], [3], [4], [1], []])
        #expect(ExchangeReferences.named(in: ["#12 HTTP 200", "then #3 GET", "(#4)", "a#5", "#x", "#"]) == [12, 3, 4])
        #expect(ExchangeReferences.subjects(of: "android-app: the Google app's intent") == [.target(.androidApp)])
        #expect(ExchangeReferences.subjects(of: "the Google app's intent").isEmpty)
    }

    @Test func theSummaryEscapesWhatAServerSentAndStaysUnderItsBound() throws {
        let hostile = "<script>alert(1)</script> | *bold* [link](https://attacker.example) @someone #12 `tick`"
        let small = AuditReport(results: [AuditResult(.tokenJSON, .fail, hostile, evidence: ["```", hostile])])
        let text = AuditSummaryMarkdown.document(small)
        #expect(text.contains("\\<script\\>alert\\(1\\)\\<\\/script\\> \\| \\*bold\\* \\[link\\]"), "\(text)")
        #expect(text.contains("- **Failed:** \\<script\\>"), "the reason is escaped; only the fenced evidence holds it as it came")
        // The evidence is fenced with more backticks than it holds in a row.
        #expect(text.contains("\n````text\n```\n"), "\(text)")
        #expect(!text.contains(AuditSummaryMarkdown.cutNote))

        let line = String(repeating: "x", count: 2_000)
        let evidence = Array(repeating: line, count: 200)
        let large = AuditReport(
            results: AuditCatalogue.all.map { AuditResult($0, .fail, String(repeating: "r", count: 10_000), evidence: evidence) }
        )
        let bound = AuditSummaryMarkdown.limit - 32 * 1024
        let cut = AuditSummaryMarkdown.document(large)
        #expect(cut.utf8.count <= bound, "\(cut.utf8.count)")
        #expect(cut.contains(AuditSummaryMarkdown.cutNote))
        #expect(cut.contains("| \(AuditCatalogue.all.count) | 0 | 0 | 0 | 0 |"))
        #expect(AuditCatalogue.all.allSatisfy { cut.contains("`\($0.id)`") }, "every failure keeps its section")
        let tight = AuditSummaryMarkdown.document(large, budget: 64 * 1024)
        #expect(tight.utf8.count <= 64 * 1024)
    }

    /// Each start of the Android intent is a handoff of the run, numbered in the one sequence with the token
    /// exchanges, its result's code shown only as its length.
    @Test func theAndroidStartsAreHandoffsInTheRunsSequence() async throws {
        try await TestPartner.run(handler: TestPartner.handler(extra: ["android": TestPartner.androidSection()])) { daemon in
            let report = try await AndroidAuditTests.audit(daemon)
            let starts = report.handoffs.filter { $0.operation == .start }
            #expect(starts.count >= 5 && starts.count == report.handoffs.count, "\(report.handoffs.map(\.purpose))")
            // Each start was answered or failed (the action family's other actions resolve to no activity).
            #expect(starts.allSatisfy { $0.sent.hasPrefix("intent:#Intent;action=") && ($0.reply != nil) != ($0.failure != nil) })
            let ids = (report.handoffs.map(\.id) + report.exchanges.map(\.id)).sorted()
            #expect(ids == Array(1...ids.count), "one sequence, no number twice")
            let valid = try #require(starts.first { $0.purpose == "the Google app's intent" })
            #expect(valid.sent.hasPrefix("intent:#Intent;action=\(TestPartner.androidAction);"), "\(valid.sent)")
            #expect(valid.reply?.contains("AUTHORIZATION_CODE=") == true && valid.reply?.contains("[redacted:") == true, "\(valid.reply ?? "")")
            #expect(!(valid.reply ?? "").contains(TestPartner.clientSecret))
        }
    }

    /// A JSON answer's secrets are redacted at any depth, and the request's own secrets wherever they appear.
    @Test func aJSONBodysSecretsAreRedactedAtAnyDepth() {
        let body =
            #"{"data":{"access_token":"nested-access-0123","user":"alice"},"grants":[{"refresh_token":"listed-refresh-4567"}],"#
            + #""tokens":["bare-token-89ab"],"error_description":"bad sent-secret-cdef","expires_in":3600}"#
        let shown = Redaction.body(Array(body.utf8), contentType: "application/json", secretsSent: ["sent-secret-cdef"])
        for secret in ["nested-access-0123", "listed-refresh-4567", "bare-token-89ab", "sent-secret-cdef"] {
            #expect(!shown.contains(secret), "\(shown)")
        }
        #expect(shown.contains(#""user":"alice""#) && shown.contains(#""expires_in":3600"#), "\(shown)")
        #expect(shown.contains("sha256:" + Fingerprint.of("nested-access-0123")), "\(shown)")
    }

    @Test func theArchivesURLsAreURLsAndTheirQueryIsDecoded() {
        let url = HTTPArchive.archiveURL("https://partner.example/authorize?code=(43 bytes, sha256:2b199a99)&state=a%2Bb#frag")
        #expect(url == "https://partner.example/authorize?code=(43%20bytes,%20sha256:2b199a99)&state=a%2Bb")
        #expect(
            HTTPArchive.queryString(of: url) == [
                .init(name: "code", value: "(43 bytes, sha256:2b199a99)"), .init(name: "state", value: "a+b"),
            ]
        )
        #expect(HTTPArchive.isPlaceholder("(512 bytes, text/html)") && HTTPArchive.isPlaceholder("(empty)"))
        #expect(!HTTPArchive.isPlaceholder("(a note)") && !HTTPArchive.isPlaceholder("{\"error\":\"x\"}"))
    }
}
