import AppFlipCore
import AppFlipHTTPClient
import AppFlipTesting
import Foundation
import Testing

/// The fetch iOS makes (`aasa fetch`: the hosting rules and `aasa.valid`) against real HTTPS servers on
/// 127.0.0.1, with a certificate authority made in the test.
@Suite struct HostedAssociationFetcherTests {
    /// Fetches and loads `domain`'s file, naming no app.
    static func fetch(_ domain: String, _ options: HostedFetchOptions) async -> HostedReport<AASAReportDetails> {
        await HostedCheckRunner(options: options).run(AASAFileCheck(appID: nil), host: domain)
    }

    /// The first rule `domain`'s file broke.
    static func failure(_ domain: String, _ options: HostedFetchOptions) async -> HostedCheck? {
        await fetch(domain, options).failures.first
    }

    @Test func theRightFileFetchesAndLoads() async throws {
        try await HostedTestFixture.withCDNServer { fixture, server in
            let hosted = await Self.fetch("good.example", fixture.cdnOptions(server))
            #expect(hosted.url == "https://localhost:\(server.port)/a/v1/good.example")
            #expect(hosted.details.bytes == HostedTestFixture.file)
            let file = try #require(hosted.details.file)
            #expect(file.appIDs == [HostedTestFixture.appID])
            #expect(file.decide(appID: HostedTestFixture.appID, url: try RawURL("https://good.example/flip/1")).outcome == .match)
            // Parameters and case do not matter to the media type.
            #expect(await Self.fetch("charset.example", fixture.cdnOptions(server)).details.file != nil)
        }
    }

    @Test func aDirectFetchUsesTheWellKnownPath() async throws {
        try await HostedTestFixture.withCDNServer { fixture, server in
            var options = fixture.cdnOptions(server)
            options.source = .direct(port: server.port)
            let hosted = await Self.fetch("localhost", options)
            // Known by its port-less URL, fetched from the test server's port.
            #expect(hosted.url == "https://localhost/.well-known/apple-app-site-association")
            #expect(hosted.checks.first?.evidence == "TLS verified for https://localhost:\(server.port)/.well-known/apple-app-site-association")
            #expect(hosted.details.file?.appIDs == [HostedTestFixture.appID])
        }
    }

    @Test func aRedirectFailsAndNamesItsLocation() async throws {
        try await HostedTestFixture.withCDNServer { fixture, server in
            let failure = try #require(await Self.failure("redirect.example", fixture.cdnOptions(server)))
            #expect(failure.rule == "aasa.hosted-no-redirect")
            #expect(failure.evidence.contains("301"))
            #expect(failure.evidence.contains("https://www.redirect.example/.well-known/apple-app-site-association"))
        }
    }

    @Test(arguments: [("html.example", "text/html"), ("untyped.example", "no Content-Type")])
    func aWrongOrMissingContentTypeFails(domain: String, seen: String) async throws {
        try await HostedTestFixture.withCDNServer { fixture, server in
            let failure = try #require(await Self.failure(domain, fixture.cdnOptions(server)))
            #expect(failure.rule == "aasa.hosted-content-type")
            #expect(failure.evidence.contains(seen))
        }
    }

    @Test func a129KBFileFailsOnItsContentLength() async throws {
        try await HostedTestFixture.withCDNServer { fixture, server in
            let failure = try #require(await Self.failure("large.example", fixture.cdnOptions(server)))
            #expect(failure.rule == "aasa.hosted-size")
            #expect(failure.evidence.contains("\(129 * 1024)"))
        }
    }

    @Test func aBodyWithoutLengthStopsBeingReadPast128KB() async throws {
        // 1 MB offered in 16 KB chunks: the fetch stops at the chunk that crosses 128 KB (`collect(upTo:)`). (Kept small: the
        // server encrypts on the shared event loop, and a larger body would starve the other tests' servers.)
        try await HostedTestFixture.withCDNServer { fixture, server in
            let failure = try #require(await Self.failure("endless.example", fixture.cdnOptions(server)))
            #expect(failure.rule == "aasa.hosted-size")
            #expect(failure.evidence.contains("sent more than 128 KiB without finishing its body"), "\(failure.evidence)")
        }
    }

    @Test func a404Fails() async throws {
        try await HostedTestFixture.withCDNServer { fixture, server in
            let failure = try #require(await Self.failure("missing.example", fixture.cdnOptions(server)))
            #expect(failure.rule == "aasa.hosted-status")
            #expect(failure.evidence.hasPrefix("404"))
        }
    }

    @Test func anInvalidFileFailsWithTheLoadersDiagnostics() async throws {
        try await HostedTestFixture.withCDNServer { fixture, server in
            let report = await Self.fetch("broken.example", fixture.cdnOptions(server))
            let failure = try #require(report.failures.first)
            #expect(failure.rule == "aasa.valid")
            #expect(report.details.refusal.map(\.code) == [.invalidJSON])
            #expect(failure.evidence.contains("column"))
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        try await HostedTestFixture.withCDNServer { fixture, server in
            // 4 s: the fetch connects within half of it, and a TLS handshake on a loaded machine may take a second.
            let report = await Self.fetch("silent.example", fixture.cdnOptions(server, timeout: TestTime.seconds(4)))
            let couldNotRun = try #require(report.couldNotRun)
            #expect(report.checks.isEmpty)
            #expect(couldNotRun.contains("the server did not answer within \(4 * TestTime.scale) s"), "\(couldNotRun)")
        }
    }

    @Test func aCertificateForAnotherNameFails() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let identity = try fixture.authority.serverIdentity(for: ["other.example"])
        try await TestHTTPSServer.with(identity: identity, routes: HostedTestFixture.cdnRoutes) { server in
            let failure = try #require(await Self.failure("good.example", fixture.cdnOptions(server)))
            #expect(failure.rule == "aasa.hosted-https", "\(failure)")
            #expect(failure.evidence.hasPrefix("TLS with the server failed"), "\(failure.evidence)")
        }
    }

    @Test func aCertificateFromAnAuthorityNotTrustedFails() async throws {
        try await HostedTestFixture.withCDNServer { fixture, server in
            var options = fixture.cdnOptions(server)
            options.trust = .system
            let failure = try #require(await Self.failure("good.example", options))
            #expect(failure.rule == "aasa.hosted-https", "\(failure)")
        }
    }

    @Test func aClosedPortCannotRun() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        // Port 1 on 127.0.0.1: nothing listens there.
        let options = HostedFetchOptions(source: .direct(port: 1), trust: .caFile(fixture.caFile), timeout: .seconds(5))
        #expect(await Self.fetch("localhost", options).couldNotRun != nil)
    }
}
