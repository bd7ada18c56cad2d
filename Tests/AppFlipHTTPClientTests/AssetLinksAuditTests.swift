import AppFlipAudit
import AppFlipCore
import AppFlipHTTPClient
import Foundation
import Testing

/// `appflip audit --assetlinks-domain`: the Android association target's checks over real HTTPS on 127.0.0.1,
/// each failing exactly on its own broken variant, and what a failed hosting rule leaves unchecked skipped.
@Suite struct AssetLinksAuditTests {
    typealias Server = AssetLinksTestServer

    static func audit(_ variant: Server.Variant) async throws -> AuditReport {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        return try await Server.with(variant, fixture: fixture) { server in
            let target = AssetLinksTarget(
                source: .hosted(host: "localhost", fetch: Server.options(fixture, server)),
                package: Server.package,
                fingerprints: [Server.fingerprint]
            )
            return AuditReport(results: try await target.run())
        }
    }

    static let androidChecks = AuditCatalogue.all.filter { $0.target == .androidAssociationFile }

    @Test func aConformingHostPassesEveryCheck() async throws {
        let report = try await Self.audit(.good)
        #expect(report.checks(.pass).filter { $0.target == .androidAssociationFile } == Self.androidChecks)
        #expect(report.exitStatus == 0)
    }

    @Test(arguments: [
        (Server.Variant.movedPermanently, CheckSpec.assetLinksHostedNoRedirect),
        (.notFound, .assetLinksHostedStatus),
        (.textPlain, .assetLinksHostedContentType),
        (.oversized, .assetLinksHostedSize),
        (.mistakeBeside, .assetLinksValid),
        (.otherFingerprint, .assetLinksDelegates),
        (.nullBeside, .assetLinksStatementServiceVerifies),
    ])
    func eachBrokenVariantFailsExactlyItsCheck(variant: Server.Variant, check: CheckSpec) async throws {
        let report = try await Self.audit(variant)
        #expect(
            report.checks(.fail) == [check],
            "\(report.results.filter { $0.check.target == .androidAssociationFile }.map { "\($0.check.id) \($0.outcome) \($0.reason)" })"
        )
        #expect(report.result(check).check.source == AssetLinksRule(rawValue: check.id)?.source)
        #expect(report.exitStatus == 2)
    }

    /// The audit's evidence names the Digital Asset Links API's codes: beside each diagnostic of
    /// `assetlinks.valid`, and in Google's verdict.
    @Test func theEvidenceNamesTheAPIsErrorCodes() async throws {
        let invalid = try await Self.audit(.mistakeBeside).result(.assetLinksValid)
        #expect(invalid.evidence.contains { $0.contains("DAL052") && $0.hasSuffix(" [ERROR_CODE_MALFORMED_CONTENT]") }, "\(invalid.evidence)")
        let wrongType = try await Self.audit(.textPlain).result(.assetLinksGoogleVerifies)
        let evidence = ([wrongType.reason] + wrongType.evidence).joined(separator: " ")
        #expect(evidence.contains("ERROR_CODE_WRONG_CONTENT_TYPE"), "\(evidence)")
    }

    @Test func aValidListWithWarningsIsAWarningCitingThem() async throws {
        // A `null` beside the delegation: Google's verifier reads on, StatementService refuses the host (DAL034).
        let report = try await Self.audit(.nullBeside)
        let valid = report.result(.assetLinksValid)
        #expect(valid.outcome == .warning, "\(valid)")
        #expect(valid.reason == "https://localhost/.well-known/assetlinks.json is valid, with 1 warning(s)", "\(valid.reason)")
        #expect(valid.evidence.count == 1 && valid.evidence[0].contains("DAL034"), "\(valid.evidence)")
    }

    @Test func aLocalFileSkipsTheHostingChecks() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("assetlinks.json").path
        try Data(Server.file).write(to: URL(fileURLWithPath: path))
        let target = AssetLinksTarget(source: .file(path: path), package: Server.package, fingerprints: [Server.fingerprint])
        let report = AuditReport(results: try await target.run())
        #expect(
            report.checks(.skipped).filter { $0.target == .androidAssociationFile } == [
                .assetLinksHostedHTTPS, .assetLinksHostedNoRedirect, .assetLinksHostedStatus, .assetLinksHostedContentType, .assetLinksHostedSize,
            ]
        )
        #expect(report.checks(.fail).isEmpty)
    }

    @Test func aHostThatDoesNotAnswerIsUnreachable() async throws {
        let target = AssetLinksTarget(
            source: .hosted(host: "localhost", fetch: HostedFetchOptions(source: .direct(port: 1), timeout: .seconds(5))),
            package: Server.package,
            fingerprints: [Server.fingerprint]
        )
        await #expect(throws: AuditUnreachable.self) { try await target.run() }
    }
}
