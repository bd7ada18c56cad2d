public import AppFlipClient
import AppFlipCore
import AppFlipProtocol
import NIOConcurrencyHelpers

/// The Google app's receiving half: a live app registered for Google's App Flip redirect links, which
/// keeps every result URL delivered to it, unredacted (it is the one app that may see the code).
public final class GoogleApp: Sendable {
    /// `EQHXZ8M8AV` is Google's Apple team id; the bundle id names the Google app.
    public static func appID(bundleID: String) -> String { "EQHXZ8M8AV.\(bundleID)" }

    /// Both redirect hosts, production and sandbox.
    public static let domains = AppFlipRedirectURI.Environment.allCases.map { "applinks:\($0.rawValue)" }

    /// The app id this registration took, `EQHXZ8M8AV.<bundle id>`.
    public let appID: String
    private let receivedURLs = NIOLockedValueBox<[String]>([])

    private init(appID: String) {
        self.appID = appID
    }

    /// Registers `connection` as the Google app with bundle `bundleID`: it claims `/a/<bundleID>` on both
    /// redirect hosts and answers `continue: true` to each result. With no bundle id it claims every Google
    /// app's path, `/a/*`, and sees whatever a partner opens on the redirect hosts.
    public static func register(on connection: AppFlipConnection, bundleID: String?) async throws -> GoogleApp {
        let app = GoogleApp(appID: appID(bundleID: bundleID ?? "com.google.OPA"))
        let registration = RegisterRequest(appID: app.appID, domains: domains, components: [.object(["/": .string("/a/\(bundleID ?? "*")")])])
        let handler = ImmediateLiveApp { [received = app.receivedURLs] push in
            received.withLockedValue { $0.append(push.activity.webpageURL ?? "") }
            return LiveAnswer(continue: true)
        }
        // The Google app of a run that has just ended (the previous `appflip flip`) stays registered until the
        // daemon has seen its connection close: a claim conflict is retried for up to two seconds.
        for attempt in 1... {
            do {
                _ = try await connection.register(registration, handler: handler)
                return app
            } catch let error as ErrorBody where error.code == .claimConflict && attempt < 40 {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        preconditionFailure("unreachable: the loop returns or throws")
    }

    /// Removes and returns the result of the flip that sent `state`: the URL whose `state` parameter decodes
    /// to it, else the oldest URL received (a partner that mangles the state still has its result checked).
    ///
    /// The daemon delivers every URL an app opens before it replies to the `open`, so the result is here
    /// once that reply is. Many flips may be in flight on one registration (the benchmark).
    public func takeResult(state: String) -> String? {
        receivedURLs.withLockedValue { urls in
            let index = urls.firstIndex { Self.state(of: $0) == state } ?? urls.indices.first
            return index.map { urls.remove(at: $0) }
        }
    }

    /// Every URL received and not yet taken, oldest first.
    public var received: [String] {
        receivedURLs.withLockedValue { $0 }
    }

    /// Removes and returns every URL received so far.
    public func takeAll() -> [String] {
        receivedURLs.withLockedValue { urls in
            defer { urls = [] }
            return urls
        }
    }

    private static func state(of url: String) -> String? {
        guard let query = (try? RawURL(url))?.query else { return nil }
        for field in query.split(separator: "&") where field.hasPrefix("state=") {
            return PercentEncoding.formDecode(field.dropFirst("state=".count))
        }
        return nil
    }
}
