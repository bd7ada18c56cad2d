import AppFlipCore
import AppFlipHTTPClient
import Foundation
import Testing

/// The checks `appflip aasa check` and `appflip audit` report, over real HTTPS, and drift as meaning.
@Suite struct HostedAssociationCheckerTests {
    static func check(
        _ domain: String,
        urls: [String] = [],
        committed: String? = nil
    ) async throws -> HostedReport<AASAReportDetails> {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let identity = try fixture.authority.serverIdentity(for: ["localhost"])
        return try await TestHTTPSServer.with(identity: identity, routes: HostedTestFixture.cdnRoutes) { server in
            let check = AASAFileCheck(
                appID: HostedTestFixture.appID,
                urls: try urls.map { try RawURL($0) },
                committed: try committed.map { try AssociationFile(json: Array($0.utf8)) }
            )
            return await HostedCheckRunner(options: fixture.cdnOptions(server)).run(check, host: domain)
        }
    }

    @Test func aGoodFilePassesEveryCheckAndDecidesEachURL() async throws {
        let report = try await Self.check("good.example", urls: ["https://good.example/flip/1", "https://good.example/help/1"])
        #expect(
            report.checks.map { "\($0.name) \($0.status.rawValue)" } == [
                "aasa.hosted-https passed", "aasa.hosted-no-redirect passed", "aasa.hosted-status passed",
                "aasa.hosted-content-type passed", "aasa.hosted-size passed", "aasa.valid passed", "aasa.app-id passed",
                "aasa.url-decision https://good.example/flip/1 passed", "aasa.url-decision https://good.example/help/1 failed",
            ]
        )
        #expect(report.failures.first?.evidence.hasPrefix("exclude by /applinks/details/0/components/1") == true)
        #expect(report.couldNotRun == nil)
    }

    @Test func aFailedHostingRuleSkipsTheRest() async throws {
        let report = try await Self.check("html.example", urls: ["https://html.example/flip/1"])
        #expect(
            report.checks.map { "\($0.rule) \($0.status.rawValue)" } == [
                "aasa.hosted-https passed", "aasa.hosted-no-redirect passed", "aasa.hosted-status passed",
                "aasa.hosted-content-type failed", "aasa.hosted-size skipped", "aasa.valid skipped",
            ]
        )
    }

    @Test func anUnansweredFetchCouldNotRun() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let options = HostedFetchOptions(source: .direct(port: 1), trust: .caFile(fixture.caFile), timeout: .seconds(5))
        let report = await HostedCheckRunner(options: options).run(AASAFileCheck(appID: HostedTestFixture.appID), host: "localhost")
        #expect(report.couldNotRun != nil)
        #expect(report.checks.isEmpty)
    }

    @Test func driftIsMeaningNotText() async throws {
        // The same rules, reordered keys and whitespace: no drift.
        let same =
            #"{ "applinks" : { "details" : [ { "components":[{"/":"/flip/*"},{"exclude":true,"/":"/help/*"}], "appIDs":["ABCDE12345.com.example.partner"] } ] } }"#
        let unchanged = try await Self.check("good.example", committed: same)
        #expect(unchanged.details.drift?.isEmpty == true)
        #expect(unchanged.checks.last?.rule == "aasa.drift" && unchanged.checks.last?.status == .passed)

        // The committed file sent /help/* to the app and named a second app; the hosted one excludes /help/*.
        let old =
            #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.partner","ABCDE12345.com.example.old"],"components":[{"/":"/flip/*"},{"/":"/help/*"}]}]}}"#
        let drifted = try await Self.check("good.example", committed: old)
        let drift = try #require(drifted.details.drift)
        #expect(drift.vanished == ["ABCDE12345.com.example.old"])
        #expect(drift.appeared.isEmpty)
        let partnerChanges = drift.changes.filter { $0.appID == HostedTestFixture.appID }
        #expect(partnerChanges.map(\.url) == ["https://good.example/help/x"])
        #expect(partnerChanges.first?.before.outcome == .match && partnerChanges.first?.after.outcome == .exclude)
        #expect(drifted.checks.last?.status == .failed)
        #expect(drifted.checks.last?.evidence.contains("apps vanished: ABCDE12345.com.example.old") == true)
    }

    @Test func junitHasOneTestcasePerCheckAndTheRuleInEachFailure() async throws {
        let report = try await Self.check("good.example", urls: ["https://good.example/nope"])
        let xml = report.junitXML
        #expect(xml.components(separatedBy: "<testsuite ").count == 2)
        #expect(xml.components(separatedBy: "<testcase ").count == report.checks.count + 1)
        #expect(
            xml.contains(
                #"<failure message="aasa.url-decision: no_match: no rule for ABCDE12345.com.example.partner decides https://good.example/nope""#
            )
        )
    }
}
