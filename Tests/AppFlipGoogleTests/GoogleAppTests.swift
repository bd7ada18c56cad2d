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

    /// What the daemon's `open` reply lists for a URL the partner app opened and the Google app took.
    static func delivered(_ url: String) -> OpenedURL {
        OpenedURL(url: Redaction.redact(url: url), universalLinksOnly: true, status: .delivered)
    }

    @Test func aResultIsTakenByItsDecodedStateOrByTheOpenThatDeliveredIt() async throws {
        try await withTestDaemon { daemon in
            let google = try await TestGoogleApp.register(on: daemon)
            let sender = try await daemon.connect()
            let mangled = Self.opa + "?code=a&state=first"
            let encoded = Self.opa + "?code=b&state=a%2Bb%20c"
            let another = Self.opa + "?code=c&state=in+flight"
            let stateless = Self.opa + "?error=cancelled"
            let codeOnly = Self.opa + "?code=d"
            for state in ["a+b c", "in flight", "mine", "stray", "error", "code"] { google.app.expectResult(state: state) }
            for url in [mangled, encoded, another, stateless, codeOnly] {
                _ = try await sender.send(.open(OpenRequest(activity: Activity(webpageURL: url)))).get()
            }
            await sender.close()
            #expect(google.app.takeResult(state: "a+b c", opened: []) == .result(encoded))
            // No URL carries the state and the flip's open delivered none: no result, and nothing else is taken.
            #expect(google.app.takeResult(state: "nobody's", opened: []) == nil)
            // A URL with another in-flight flip's state is left to that flip.
            #expect(google.app.takeResult(state: "mine", opened: [Self.delivered(another)]) == nil)
            #expect(google.app.takeResult(state: "in flight", opened: []) == .result(another))
            // A URL whose state is no flip's goes to the flip whose open delivered it, as no result.
            #expect(
                google.app.takeResult(state: "stray", opened: [Self.delivered(mangled)])
                    == .unclaimed(url: mangled, shown: Self.opa + "?code=[redacted:1B]&state=first")
            )
            // The seed's error sample has no state: the flip whose open delivered it takes it.
            #expect(google.app.takeResult(state: "error", opened: [Self.delivered(stateless)]) == .result(stateless))
            // A code without a state is no result either.
            #expect(
                google.app.takeResult(state: "code", opened: [Self.delivered(codeOnly)])
                    == .unclaimed(url: codeOnly, shown: Self.opa + "?code=[redacted:1B]")
            )
            #expect(google.app.takeAll().isEmpty)
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
