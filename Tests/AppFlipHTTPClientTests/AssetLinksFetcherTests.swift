import AppFlipCore
import AppFlipHTTPClient
import Testing

/// The statement-list fetch and check against real HTTPS on 127.0.0.1: each broken variant fails its own
/// rule and no other, and each verifier's predicted state is the one its rules give.
@Suite struct AssetLinksFetcherTests {
    typealias Server = AssetLinksTestServer

    typealias Report = HostedReport<AssetLinksReportDetails>

    static let app = AssetLinksFileCheck(package: Server.package, fingerprints: [Server.fingerprint])

    /// `localhost`'s statement list and its includes, fetched as Android's verifiers fetch them.
    static func fetch(_ options: HostedFetchOptions) async throws -> [HostedFetch] {
        try await HostedFileFetcher(policy: .assetLinks, options: options).fetch(host: "localhost", includes: AssetLinksFileCheck.includes(of:))
    }

    /// Fetches `variant` and checks it for the test app.
    static func check(_ variant: Server.Variant, names: [String] = ["localhost"]) async throws -> ([HostedFetch], Report) {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        return try await Server.with(variant, fixture: fixture, names: names) { server in
            let fetches = try await Self.fetch(Server.options(fixture, server))
            return (fetches, Self.app.check(host: "localhost", fetches: fetches))
        }
    }

    static func state(_ report: Report, _ verifier: AppLinkVerifier, _ generation: AndroidGeneration = .android12) -> String? {
        report.details.predictions.first { $0.verifier == verifier && $0.generation == generation }?.verdict.state.description
    }

    /// Each variant: the checks that fail, Google's and StatementService's state on Android 12, and what the
    /// Digital Asset Links API would answer for the same file (its outcome and error codes).
    @Test(arguments: [
        (Server.Variant.good, [String](), "verified", "verified", "SUCCESS"),
        (.include, [], "verified", "verified", "SUCCESS"),
        (.movedPermanently, ["assetlinks.hosted-no-redirect"], "1024", "1029", "FETCH_ERROR ERROR_CODE_REDIRECT"),
        (.temporaryRedirect, ["assetlinks.hosted-no-redirect"], "1024", "1026", "FETCH_ERROR ERROR_CODE_REDIRECT"),
        (.notFound, ["assetlinks.hosted-status"], "1024", "1026", "FETCH_ERROR ERROR_CODE_FETCH_ERROR"),
        (.htmlSoft404, ["assetlinks.hosted-content-type", "assetlinks.valid"], "1024", "1028", "FETCH_ERROR ERROR_CODE_WRONG_CONTENT_TYPE"),
        (.textPlain, ["assetlinks.hosted-content-type"], "1024", "verified", "FETCH_ERROR ERROR_CODE_WRONG_CONTENT_TYPE"),
        (.oversized, ["assetlinks.hosted-size"], "could not judge", "1026", "not judged"),
        (.largeDeclared, ["assetlinks.hosted-size"], "could not judge", "1026", "not judged"),
        // Past 1 MiB sent chunked: Android 12+'s StatementService reads it whole, and verifies.
        (.largeChunked, ["assetlinks.hosted-size"], "could not judge", "verified", "not judged"),
        (.oversizedStreamed, ["assetlinks.hosted-size", "assetlinks.valid"], "could not judge", "1028", "not judged"),
        // Past appflip's own 4 MiB: StatementService would read on; its verdict is not judged.
        (.pastBoundChunked, ["assetlinks.hosted-size"], "could not judge", "could not judge", "not judged"),
        (.mistakeBeside, ["assetlinks.valid"], "verified", "verified", "FETCH_ERROR ERROR_CODE_MALFORMED_CONTENT"),
        (.nullBeside, ["assetlinks.statement-service-verifies"], "verified", "1028", "SUCCESS"),
        (.otherFingerprint, ["assetlinks.delegates"], "1024", "1026", "SUCCESS"),
    ])
    func eachVariantFailsItsOwnRule(variant: Server.Variant, failing: [String], google: String, statementService: String, api: String) async throws {
        let (_, report) = try await Self.check(variant)
        #expect(report.couldNotRun == nil, "\(report.couldNotRun ?? "")")
        #expect(report.failures.map(\.rule) == failing, "\(report.checks.map { "\($0.rule) \($0.status) \($0.evidence)" })")
        #expect(Self.state(report, .google) == google)
        #expect(Self.state(report, .statementService) == statementService)
        #expect(report.details.apiSummary.hasPrefix(api), "\(report.details.apiSummary)")
        // Android 11 and earlier: all hosts or none, so a failure reads `none` there.
        #expect(Self.state(report, .google, .android11AndEarlier) == (google == "verified" || google == "could not judge" ? google : "none"))
    }

    /// A body past 1 MiB is refused by Android 6–11's StatementService however it comes, and read whole by
    /// Android 12+'s when it comes without a Content-Length; past appflip's 4 MiB nothing is judged for it.
    @Test func aLargeBodyIsReadAsFarAsEachVerifierReadsIt() async throws {
        let (chunked, read) = try await Self.check(.largeChunked)
        #expect(chunked[0].bodyFailure == nil)
        #expect(chunked[0].response?.body.count == Server.padded(1024 * 1024 + 200 * 1024).count)
        #expect(Self.state(read, .statementService, .android11AndEarlier) == "none")
        #expect(Self.state(read, .statementService, .android15) == "verified")
        let size = try #require(read.check(HostingPolicy.assetLinks.rules.size))
        #expect(
            size.evidence.hasPrefix(
                "\(Server.padded(1024 * 1024 + 200 * 1024).count) bytes sent without a Content-Length; Android 6–11's StatementService stops"
            )
        )
        #expect(read.check(AssetLinksFileCheck.valid)?.status == .passed)
        #expect(read.check(AssetLinksFileCheck.delegates)?.status == .passed)
        #expect(read.check(AssetLinksFileCheck.statementServiceVerifies)?.status == .passed)
        #expect(read.check(AssetLinksFileCheck.googleVerifies)?.status == .skipped)

        let (past, unread) = try await Self.check(.pastBoundChunked)
        #expect(past[0].bodyFailure?.overCap == .sent)
        #expect(past[0].response?.cutAt == HostingPolicy.assetLinksReadLimit)
        let verdict = try #require(unread.check(AssetLinksFileCheck.statementServiceVerifies))
        #expect(verdict.status == .skipped)
        #expect(verdict.evidence.contains("appflip stopped at its own bound of \(HostingPolicy.assetLinksReadLimit) bytes"), "\(verdict.evidence)")
        #expect(unread.check(HostingPolicy.assetLinks.rules.size)?.evidence.contains("appflip reads at most 4 MiB") == true)

        let (declared, refused) = try await Self.check(.largeDeclared)
        #expect(declared[0].bodyFailure?.overCap == .declared)
        #expect(declared[0].response?.body.isEmpty == true, "a declared length over 1 MiB is not read")
        #expect(
            refused.check(AssetLinksFileCheck.statementServiceVerifies)?.evidence.hasPrefix("decided by assetlinks.hosted-size: state 1026") == true
        )
    }

    @Test func theFetchRecordsWhatItSaw() async throws {
        let (redirect, _) = try await Self.check(.movedPermanently)
        guard case .response(let moved) = redirect[0].result else {
            Issue.record("no response: \(redirect[0].result)")
            return
        }
        #expect(moved.status == 301)
        #expect(moved.location == "https://www.localhost/.well-known/assetlinks.json")
        #expect(redirect[0].url == "https://localhost/.well-known/assetlinks.json")

        let (html, report) = try await Self.check(.htmlSoft404)
        guard case .response(let page) = html[0].result else {
            Issue.record("no response: \(html[0].result)")
            return
        }
        #expect(page.contentType == "text/html; charset=utf-8")
        let codes = report.details.documents.flatMap { $0.list.diagnostics.map(\.code) }
        #expect(codes == [.htmlInsteadOfJSON])

        let (oversized, _) = try await Self.check(.oversized)
        #expect(oversized[0].bodyFailure?.overCap == .declared)
    }

    @Test func anIncludeIsFetchedUnderTheSameRules() async throws {
        let (fetches, report) = try await Self.check(.include)
        #expect(fetches.count == 2)
        #expect(fetches[1].url.hasSuffix("/include.json"))
        #expect(report.details.documents.count == 2)
    }

    @Test func aCertificateForAnotherNameFailsHTTPSOnly() async throws {
        let (fetches, report) = try await Self.check(.good, names: ["other.example"])
        guard case .tlsFailed = fetches[0].result else {
            Issue.record("not a TLS failure: \(fetches[0].result)")
            return
        }
        #expect(report.failures.map(\.rule) == ["assetlinks.hosted-https"])
        #expect(report.checks.filter { $0.status == .passed }.isEmpty)
        #expect(Self.state(report, .google) == "1024")
    }

    @Test func driftNamesWhatAppearsVanishesAndWhichVerdictsChange() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        try await Server.with(.otherFingerprint, fixture: fixture) { server in
            let fetches = try await Self.fetch(Server.options(fixture, server))
            let committed = AssetLinksFileCheck(package: Server.package, fingerprints: [Server.fingerprint], committed: Server.file)
            let drift = try #require(committed.check(host: "localhost", fetches: fetches).details.drift)
            #expect(drift.vanished == ["\(Server.package) \(Server.fingerprint)"])
            #expect(drift.appeared == ["\(Server.package) " + String(repeating: "AB:", count: 31) + "AB"])
            #expect(drift.verdictChanges.contains("google on android-12: verified → 1024"))
            #expect(drift.verdictChanges.contains("statement-service on android-12: verified → 1026"))

            let same = AssetLinksFileCheck(
                package: Server.package,
                fingerprints: [Server.fingerprint],
                committed: Array("[\(Server.statement(fingerprint: String(repeating: "AB:", count: 31) + "AB"))]".utf8)
            )
            #expect(same.check(host: "localhost", fetches: fetches).details.drift?.isEmpty == true)
        }
    }

    @Test func aClosedPortCannotRun() async throws {
        let fetches = try await Self.fetch(HostedFetchOptions(source: .direct(port: 1), timeout: .seconds(5)))
        let report = Self.app.check(host: "localhost", fetches: fetches)
        #expect(report.couldNotRun != nil)
        #expect(report.checks.isEmpty)
    }
}
