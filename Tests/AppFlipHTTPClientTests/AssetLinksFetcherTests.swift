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

    @Test(arguments: [
        (Server.Variant.good, [String](), "verified", "verified"),
        (.include, [], "verified", "verified"),
        (.movedPermanently, ["assetlinks.hosted-no-redirect"], "1024", "1029"),
        (.temporaryRedirect, ["assetlinks.hosted-no-redirect"], "1024", "1026"),
        (.notFound, ["assetlinks.hosted-status"], "1024", "1026"),
        (.htmlSoft404, ["assetlinks.hosted-content-type", "assetlinks.valid"], "1024", "1028"),
        (.textPlain, ["assetlinks.hosted-content-type"], "1024", "verified"),
        (.oversized, ["assetlinks.hosted-size"], "1024", "1026"),
        (.mistakeBeside, ["assetlinks.valid"], "verified", "verified"),
        (.nullBeside, ["assetlinks.statement-service-verifies"], "verified", "1028"),
        (.otherFingerprint, ["assetlinks.delegates"], "1024", "1026"),
    ])
    func eachVariantFailsItsOwnRule(variant: Server.Variant, failing: [String], google: String, statementService: String) async throws {
        let (_, report) = try await Self.check(variant)
        #expect(report.couldNotRun == nil, "\(report.couldNotRun ?? "")")
        #expect(report.failures.map(\.rule) == failing, "\(report.checks.map { "\($0.rule) \($0.status) \($0.evidence)" })")
        #expect(Self.state(report, .google) == google)
        #expect(Self.state(report, .statementService) == statementService)
        // Android 11 and earlier: all hosts or none, so a failure reads `none` there.
        #expect(Self.state(report, .google, .android11AndEarlier) == (google == "verified" ? "verified" : "none"))
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
        // Over 1 MiB without a Content-Length: StatementService would read on, so appflip's bound decides
        // nothing and the check could not run.
        let (streamed, cannotJudge) = try await Self.check(.oversizedStreamed)
        #expect(streamed[0].bodyFailure?.overCap == .sent)
        #expect(cannotJudge.couldNotRun?.contains("appflip reads no further") == true, "\(cannotJudge.couldNotRun ?? "")")
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
