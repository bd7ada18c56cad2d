import AppFlipConfiguration
import AppFlipDaemon
import AppFlipServer
import AppFlipTesting
import Logging
import ServiceLifecycle
import Testing

/// appflipd's one composition: what it runs, in which order, and what it refuses before anything listens.
@Suite struct DaemonCompositionTests {
    static let noLogs = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func theHTTPClientStartsFirstAndStopsLastTheDaemonStopsFirst() async throws {
        let composition = try DaemonComposition(
            configuration: DaemonConfiguration(),
            oauth: TestPartner.oauthConfiguration,
            listener: .path("/nonexistent/appflipd.sock"),
            logger: Self.noLogs
        )
        let kinds = composition.services.map { "\(type(of: $0.service))" }
        await composition.discard()
        #expect(kinds == ["HTTPClientLifetime", "EmbeddedAuthorizationServer", "DaemonService"])
    }

    @Test func withoutAnOAuthConfigurationNoOAuthServerRuns() async throws {
        try await withTestDaemon { daemon in
            #expect(daemon.oauthServer == nil)
            #expect(daemon.httpClient != nil)
        }
    }

    @Test func embeddedAuthorizationWithoutAnOAuthServerIsRefusedBeforeAnythingListens() async throws {
        await #expect(throws: ConfigurationError.self) {
            try await withTestDaemon(apps: [TestPartner.app()]) { _ in Issue.record("the daemon started") }
        }
    }
}
