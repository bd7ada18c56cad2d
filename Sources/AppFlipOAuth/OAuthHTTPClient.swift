import AsyncHTTPClient
import NIOCore

extension HTTPClient.Configuration {
    /// The configuration `AuthorizationEndpoint` and `TokenExchangeClient` need: redirects are never
    /// followed (the authorization response *is* the redirect, and following it would hand the code to
    /// whatever host it names), and connecting is bounded.
    public static func appFlipOAuth(connectTimeout: Duration = .seconds(5)) -> HTTPClient.Configuration {
        HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(connectTimeout))
        )
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
