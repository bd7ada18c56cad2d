import AppFlipAudit
import AppFlipCore
import AppFlipHTTPClient
import Testing

/// `appflip audit --aasa-domain`: the hosted file's hosting rules as `aasa.hosted-*` checks and the flip link's
/// routing, fetched over real HTTPS on 127.0.0.1 from a server whose certificate only the test CA signs.
@Suite struct HostedAssociationAuditTests {
    static let associationChecks = AuditCatalogue.all.filter { $0.target == .associationFile }

    static func audit(_ domain: String) async throws -> AuditReport {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let identity = try fixture.authority.serverIdentity(for: ["localhost"])
        return try await TestHTTPSServer.with(identity: identity, routes: HostedTestFixture.cdnRoutes) { server in
            let target = AssociationTarget(
                source: .hosted(host: domain, fetch: fixture.cdnOptions(server)),
                appID: HostedTestFixture.appID,
                link: try RawURL("https://\(domain)/flip/link")
            )
            return AuditReport(results: try await target.run())
        }
    }

    @Test func aConformingHostPassesEveryAssociationCheck() async throws {
        let report = try await Self.audit("good.example")
        #expect(Self.associationChecks.map { report.result($0).outcome } == Self.associationChecks.map { _ in .pass })
        #expect(
            report.result(.associationRoutesLink).reason.hasPrefix("match by /applinks/details/0/components/0"),
            "\(report.result(.associationRoutesLink))"
        )
        #expect(report.result(.associationHostedContentType).evidence.first?.contains("/a/v1/good.example") == true)
        #expect(report.exitStatus == 0)
    }

    @Test func aWrongContentTypeFailsExactlyItsCheck() async throws {
        let report = try await Self.audit("html.example")
        #expect(report.checks(.fail) == [.associationHostedContentType])
        let failed = report.result(.associationHostedContentType)
        #expect(failed.reason.contains("text/html"), "\(failed.reason)")
        #expect(failed.check.source == HostingPolicy.aasa.rules.contentType.source)
        // What the failure leaves unchecked says so; nothing else of the association file passes or fails.
        #expect(
            report.checks(.skipped).filter { $0.target == .associationFile } == [.associationValid, .associationRoutesLink, .associationHostedSize]
        )
        #expect(report.exitStatus == 2)
    }

    @Test func aFileThatLoadsWithWarningsIsAWarningCitingThem() async throws {
        let report = try await Self.audit("warned.example")
        let valid = report.result(.associationValid)
        #expect(valid.outcome == .warning, "\(valid)")
        #expect(valid.reason.hasSuffix("/a/v1/warned.example is valid, with \(valid.evidence.count) warning(s)"), "\(valid.reason)")
        #expect(!valid.evidence.isEmpty && valid.evidence.allSatisfy { $0.contains("AASA1") }, "\(valid.evidence)")
        #expect(report.result(.associationRoutesLink).outcome == .pass)
        #expect(report.exitStatus == 0)
    }

    @Test func aHostThatDoesNotAnswerIsUnreachable() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let target = AssociationTarget(
            source: .hosted(
                host: "localhost",
                fetch: HostedFetchOptions(source: .direct(port: 1), trust: .caFile(fixture.caFile), timeout: .seconds(5))
            ),
            appID: HostedTestFixture.appID,
            link: try RawURL("https://localhost/flip/link")
        )
        await #expect(throws: AuditUnreachable.self) { try await target.run() }
    }
}
