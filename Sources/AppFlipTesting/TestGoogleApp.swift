public import AppFlipClient
import AppFlipCore
public import AppFlipGoogle
public import AppFlipProtocol
import NIOCore

/// The Google app in a test: a connection to a test daemon, registered as `GoogleApp` for every Google app's
/// redirect path, that sends flip links and keeps whatever the partner opens on the redirect hosts.
public struct TestGoogleApp: Sendable {
    /// The Google app's own connection to the daemon.
    public let connection: AppFlipConnection
    /// The registered Google app, holding the result URLs delivered to it.
    public let app: GoogleApp

    /// Connects to `daemon` and registers as the Google app for every bundle's redirect path.
    public static func register(on daemon: TestDaemon) async throws -> TestGoogleApp {
        let connection = try await daemon.connect()
        do {
            return TestGoogleApp(connection: connection, app: try await GoogleApp.register(on: connection, bundleID: nil))
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Every URL delivered to the Google app so far, oldest first.
    public var urls: [String] { app.received }

    /// Sends the ``TestPartner`` flip link with these parameters; the daemon's reply, whatever it is.
    public func flip(
        link: String = TestPartner.link,
        clientID: String = TestPartner.clientID,
        scopes: [String] = ["profile"],
        state: String,
        redirectURI: String
    ) async throws -> Reply {
        try await open(FlipLink.link(to: try RawURL(link), clientID: clientID, scopes: scopes, state: state, redirectURI: redirectURI))
    }

    /// Sends `link` as a browsing-web activity; the daemon's reply, whatever it is.
    public func open(_ link: String) async throws -> Reply {
        try await connection.send(.open(OpenRequest(activity: Activity(activityType: browsingWebActivityType, webpageURL: link)))).get()
    }

    /// Closes the connection, which unregisters the Google app.
    public func close() async {
        await connection.close()
    }
}
