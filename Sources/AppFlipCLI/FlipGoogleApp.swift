import AppFlipClient
import AppFlipCore
import AppFlipProtocol
import NIOConcurrencyHelpers

/// The Google app's receiving half: a live app registered for Google's App Flip redirect links, which
/// keeps every result URL delivered to it, unredacted (it is the one app that may see the code).
final class FlipGoogleApp: Sendable {
    /// `EQHXZ8M8AV` is Google's Apple team id; the bundle id names the Google app.
    static func appID(bundleID: String) -> String { "EQHXZ8M8AV.\(bundleID)" }

    static let domains = AppFlipRedirectURI.Environment.allCases.map { "applinks:\($0.rawValue)" }

    let appID: String
    private let received = NIOLockedValueBox<[String]>([])

    private init(appID: String) {
        self.appID = appID
    }

    /// Registers `connection` as the Google app with bundle `bundleID`: it claims `/a/<bundleID>` on both
    /// redirect hosts and answers `continue: true` to each result.
    static func register(on connection: AppFlipConnection, bundleID: String) async throws -> FlipGoogleApp {
        let app = FlipGoogleApp(appID: appID(bundleID: bundleID))
        let registration = RegisterRequest(
            appID: app.appID, domains: domains, components: [.object(["/": .string("/a/\(bundleID)")])])
        _ = try await connection.register(registration, handler: ImmediateLiveApp { [received = app.received] push in
            received.withLockedValue { $0.append(push.activity.webpageURL ?? "") }
            return LiveAnswer(continue: true)
        })
        return app
    }

    /// Removes and returns the result URLs delivered so far.
    func takeReceived() -> [String] {
        received.withLockedValue { urls in
            defer { urls = [] }
            return urls
        }
    }

    /// Removes and returns the first delivered URL whose query holds `state=<encodedState>`: for many
    /// flips in flight on one registration (the benchmark), whose states need no percent-encoding.
    func takeReceived(encodedState: String) -> String? {
        received.withLockedValue { urls in
            guard let index = urls.firstIndex(where: { $0.contains("state=\(encodedState)") }) else { return nil }
            return urls.remove(at: index)
        }
    }
}
