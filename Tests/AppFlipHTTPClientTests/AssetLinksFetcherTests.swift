import AppFlipCore
import AppFlipHTTPClient
import Testing

/// The statement-list fetcher and checker against real HTTPS on 127.0.0.1: each broken variant fails its own
/// rule and no other, and each verifier's predicted state is the one its rules give.
@Suite struct AssetLinksFetcherTests {
    typealias Server = AssetLinksTestServer

    /// Fetches `variant` and checks it for the test app.
    static func check(_ variant: Server.Variant, names: [String] = ["localhost"]) async throws -> (HostedStatementLists, AssetLinksReport) {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        return try await Server.with(variant, fixture: fixture, names: names) { server in
            let lists = try await AssetLinksFetcher(options: Server.options(fixture, server)).fetch(host: "localhost")
            let report = AssetLinksChecker(package: Server.package, fingerprints: [Server.fingerprint]).check(lists)
            return (lists, report)
        }
    }

    static func state(_ report: AssetLinksReport, _ verifier: AppLinkVerifier, _ generation: AndroidGeneration = .android12) -> String? {
        report.predictions.first { $0.verifier == verifier && $0.generation == generation }?.verdict.state.description
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
        guard case .response(let moved) = redirect.file.result else {
            Issue.record("no response: \(redirect.file.result)")
            return
        }
        #expect(moved.status == 301)
        #expect(moved.location == "https://www.localhost/.well-known/assetlinks.json")
        #expect(redirect.file.url == "https://localhost/.well-known/assetlinks.json")

        let (html, report) = try await Self.check(.htmlSoft404)
        guard case .response(let page) = html.file.result else {
            Issue.record("no response: \(html.file.result)")
            return
        }
        #expect(page.contentType == "text/html; charset=utf-8")
        let codes = report.documents.flatMap { $0.list.diagnostics.map(\.code) }
        #expect(codes == [.htmlInsteadOfJSON])

        let (oversized, _) = try await Self.check(.oversized)
        #expect(oversized.file.overSize)
        // Over 1 MiB without a Content-Length: StatementService would read on, so appflip's bound decides
        // nothing and the check could not run.
        let (streamed, cannotJudge) = try await Self.check(.oversizedStreamed)
        #expect(!streamed.file.overSize)
        #expect(cannotJudge.couldNotRun?.contains("appflip reads no further") == true, "\(cannotJudge.couldNotRun ?? "")")
    }

    @Test func anIncludeIsFetchedUnderTheSameRules() async throws {
        let (lists, report) = try await Self.check(.include)
        #expect(lists.fetches.count == 2)
        #expect(lists.fetches[1].url.hasSuffix("/include.json"))
        #expect(report.documents.count == 2)
    }

    @Test func aCertificateForAnotherNameFailsHTTPSOnly() async throws {
        let (lists, report) = try await Self.check(.good, names: ["other.example"])
        guard case .tlsFailed = lists.file.result else {
            Issue.record("not a TLS failure: \(lists.file.result)")
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
            let lists = try await AssetLinksFetcher(options: Server.options(fixture, server)).fetch(host: "localhost")
            let report = AssetLinksChecker(package: Server.package, fingerprints: [Server.fingerprint]).check(lists, committed: Server.file)
            let drift = try #require(report.drift)
            #expect(drift.vanished == ["\(Server.package) \(Server.fingerprint)"])
            #expect(drift.appeared == ["\(Server.package) " + String(repeating: "AB:", count: 31) + "AB"])
            #expect(drift.verdictChanges.contains("google on android-12: verified → 1024"))
            #expect(drift.verdictChanges.contains("statement-service on android-12: verified → 1026"))

            let same = AssetLinksChecker(package: Server.package, fingerprints: [Server.fingerprint]).check(
                lists,
                committed: Array("[\(Server.statement(fingerprint: String(repeating: "AB:", count: 31) + "AB"))]".utf8)
            )
            #expect(same.drift?.isEmpty == true)
        }
    }

    @Test func aClosedPortCannotRun() async throws {
        let lists = try await AssetLinksFetcher(options: AssetLinksFetchOptions(timeout: .seconds(5), port: 1)).fetch(host: "localhost")
        let report = AssetLinksChecker(package: Server.package, fingerprints: [Server.fingerprint]).check(lists)
        #expect(report.couldNotRun != nil)
        #expect(report.checks.isEmpty)
    }
}
