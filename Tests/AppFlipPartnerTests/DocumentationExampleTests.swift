import AppFlipClient
import AppFlipConfiguration
import AppFlipCore
import AppFlipDaemon
import AppFlipGoogle
import AppFlipOAuth
import AppFlipProtocol
import AppFlipTesting
import NIOCore
import Testing

/// The examples of the AppFlipDaemon and AppFlipTesting DocC catalogs, as written there, so that they keep
/// compiling and passing.
@Suite struct DocumentationExampleTests {
    @Test func writeAHandler() async throws {
        let shop = TestApp(
            appID: "TEAM000001.com.example.shop",
            domains: ["applinks:shop.example"],
            handler: .configured(.object(["redirect": .object(["to": .string("https://checkout.example/start")])]))
        )
        let checkout = TestApp(appID: "TEAM000001.com.example.checkout", domains: ["applinks:checkout.example"], handler: .accept)
        try await withTestDaemon(apps: [shop, checkout], handlerFactories: [RedirectHandlerFactory()]) { daemon in
            let result = try await daemon.connect().open("https://shop.example/go/1")
            #expect(result.status == .handled)
            #expect(result.opened.map(\.status) == [.delivered])
        }
    }

    @Test func routeAURLToAStaticApp() async throws {
        let app = TestApp(appID: "TEAM000001.test.a", domains: ["applinks:a.test"], handler: .accept)
        try await withTestDaemon(apps: [app]) { daemon in
            let client = try await daemon.connect()
            let result = try await client.open("https://a.test/welcome")
            #expect(result.status == .handled)
            #expect(result.app == "TEAM000001.test.a")
            await client.close()
        }
    }

    @Test func playAWholeAppFlip() async throws {
        try await TestPartner.run { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            let redirectURI = AppFlipRedirectURI.all[0].string
            _ = try await google.flip(state: "s-1", redirectURI: redirectURI)
            let verdict = FlipResultChecker(redirectURI: redirectURI, state: "s-1").check(google.urls[0])
            guard case .code(let code) = verdict.outcome else {
                Issue.record("\(verdict)")
                return
            }
            let tokens = try await daemon.tokenClient().exchange(code: code, redirectURI: redirectURI)
            #expect(tokens.report.violations.isEmpty)
            await google.close()
        }
    }
}
