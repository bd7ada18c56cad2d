/// The bounds every outbound HTTP exchange of appflip and appflipd keeps, so that no partner server can hold
/// a flip, an audit or the daemon's handler longer, or make it read more, than the answer it owes could need.
/// The one place they are set: `HTTPClient.exchange(_:bounds:endpoint:)` applies them, and every outbound
/// request goes through it.
public struct OutboundBounds: Sendable, Hashable {
    /// The whole exchange, from connecting to the last body byte.
    public var deadline: Duration
    /// The most body bytes read; a longer body (declared or sent) fails as soon as it is known.
    public var maximumBodySize: Int

    /// Bounds of `deadline` and `maximumBodySize`.
    public init(deadline: Duration, maximumBodySize: Int) {
        self.deadline = deadline
        self.maximumBodySize = maximumBodySize
    }

    /// A token, error, redirect or metadata answer is a few hundred bytes: 64 KiB leaves room for any honest one.
    public static let oauthBodySize = 64 * 1024

    /// An OAuth endpoint's answer (authorization, token, revocation, metadata, a protected resource): 10 s, 64 KiB.
    public static func oauth(deadline: Duration = .seconds(10)) -> OutboundBounds {
        OutboundBounds(deadline: deadline, maximumBodySize: oauthBodySize)
    }

    /// Connecting, the TLS handshake included: shorter than any deadline, so that a host that does not come up
    /// is reported as such and not as a silent one. Set on the client (`HTTPClient.Configuration.appFlipOAuth`).
    public static let connectTimeout: Duration = .seconds(5)

    /// Closing a TLS connection: how long to wait for the server's close_notify before closing anyway.
    public static let tlsShutdownTimeout: Duration = .milliseconds(500)

    /// Response headers, names and values: NIO's HTTP/1 decoder refuses more than 80 KiB, a limit AsyncHTTPClient
    /// keeps and does not let a client change (an endless status line is read and dropped, never kept, until the
    /// deadline). Stated here so that the reports name it.
    public static let maximumHeaderSize = 80 * 1024
}
