import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipProtocol
import AppFlipTesting
import NIOCore
import Testing

/// The Google app's registration: which results it receives and which one a flip takes.
@Suite struct GoogleAppTests {
    static let opa = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"

    @Test func aResultIsTakenByItsDecodedStateElseTheOldestIsTaken() async throws {
        try await withTestDaemon { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            let sender = try await daemon.connect()
            for url in [Self.opa + "?code=a&state=first", Self.opa + "?code=b&state=a%2Bb%20c", Self.opa + "?code=c&state=third"] {
                _ = try await sender.send(.open(OpenRequest(activity: Activity(webpageURL: url)))).get()
            }
            await sender.close()
            #expect(google.app.takeResult(state: "a+b c") == Self.opa + "?code=b&state=a%2Bb%20c")
            #expect(google.app.takeResult(state: "nobody's") == Self.opa + "?code=a&state=first")
            #expect(google.app.takeAll() == [Self.opa + "?code=c&state=third"])
            #expect(google.app.takeResult(state: "third") == nil)
            await google.close()
        }
    }

    @Test func aBundleRegistrationSeesOnlyItsOwnPath() async throws {
        try await withTestDaemon { daemon in
            let connection = try await daemon.connect()
            let google = try await GoogleApp.register(on: connection, bundleID: "com.google.Chromecast")
            let sender = try await daemon.connect()
            let opa = try await sender.send(
                .open(OpenRequest(activity: Activity(webpageURL: Self.opa + "?state=s"), options: OpenOptions(universalLinksOnly: true)))
            ).get()
            let chromecast = "https://oauth-redirect-sandbox.googleusercontent.com/a/com.google.Chromecast?state=s"
            _ = try await sender.send(.open(OpenRequest(activity: Activity(webpageURL: chromecast)))).get()
            await sender.close()
            await connection.close()
            #expect(opa.error?.code == .noApp)
            #expect(google.takeAll() == [chromecast])
            #expect(google.appID == "EQHXZ8M8AV.com.google.Chromecast")
        }
    }
}
