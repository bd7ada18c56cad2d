import AppFlipClient
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTesting
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The shipped `Config/`: it loads as it is, and its demo partner app answers a flip link the way an App
/// Flip partner must.
@Suite struct ShippedConfigTests {
    /// `Config/appflipd.json` in this checkout, found from this source file.
    static let configurationFile: String = {
        let here = #filePath
        let root = here.components(separatedBy: "/Tests/").first!
        return root + "/Config/appflipd.json"
    }()

    static let redirect = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"

    @Test func theShippedConfigurationLoads() throws {
        let configuration = try DaemonConfiguration.load(from: Self.configurationFile)
        #expect(configuration.maxLineBytes == FrameLimits.defaultMaxLineBytes)
        #expect(configuration.appsDirectory?.hasSuffix("Config/apps.d") == true)
    }

    @Test(.enabled(if: access("/usr/bin/python3", X_OK) == 0, "the demo handler is a python3 script"))
    func theDemoPartnerRedirectsToGoogleWithTheStateUnchanged() async throws {
        var configuration = try DaemonConfiguration.load(from: Self.configurationFile)
        let directory = try TestDirectory.make()
        defer { TestDirectory.remove(directory) }
        configuration.socket = directory + "/appflipd.sock"
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let (ready, readyContinuation) = AsyncStream.makeStream(of: Void.self)
        let service = try DaemonService(configuration: configuration, listener: .path(configuration.socket!), logger: logger, onReady: { _ in readyContinuation.finish() })
        let group = ServiceGroup(configuration: .init(services: [service], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            for await _ in ready {}
            let google = try await AppFlipConnection.connect(to: configuration.socket!)
            let received = NIOLockedValueBox<[String]>([])
            _ = try await google.register(
                RegisterRequest(appID: "EQHXZ8M8AV.com.google.OPA", domains: ["applinks:oauth-redirect.googleusercontent.com"], components: [.object(["/": .string("/a/*")])]),
                handler: ImmediateLiveApp { push in
                    received.withLockedValue { $0.append(push.activity.webpageURL ?? "") }
                    return LiveAnswer(continue: true)
                })
            let encodedRedirect = "https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fa%2Fcom.google.OPA"
            let state = "n%C3%B8nce%2B1"
            let result = try await google.open("https://partner.appflip.test/link/flip?client_id=demo-client-id&scope=a+b&state=\(state)&redirect_uri=\(encodedRedirect)")
            #expect(result.app == "DEMOTEAM01.dev.appflip.demo-partner")
            #expect(result.opened.map(\.status) == [.delivered])
            let url = try #require(received.withLockedValue { $0.first })
            #expect(url.hasPrefix(Self.redirect + "?code=demo-"))
            #expect(url.hasSuffix("&state=\(state)"))

            let wrongClient = try await google.open("https://partner.appflip.test/link/flip?client_id=other&state=s&redirect_uri=\(encodedRedirect)")
            #expect(wrongClient.opened.count == 1)
            #expect(received.withLockedValue { $0.last } == Self.redirect + "?error=invalid_request&state=s")

            // A redirect URI off the allowlist is never redirected to.
            let evil = try await google.openError("https://partner.appflip.test/link/flip?client_id=demo-client-id&state=s&redirect_uri=https%3A%2F%2Fevil.test%2F")
            #expect(evil.code == .declined)
            #expect(evil.opened?.isEmpty == true)
            #expect(received.withLockedValue { $0.count } == 2)
            await google.close()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
