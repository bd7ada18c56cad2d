import AppFlipCore

/// `hello`: the first request on every connection.
public struct HelloRequest: Sendable, Hashable, Codable {
    /// The protocol version the client speaks; see ``ProtocolVersion``.
    public var version: Int
    /// A free-form name of the client program, for logs and `watch`.
    public var client: String?

    /// Creates the request for this build's protocol version.
    public init(version: Int = ProtocolVersion.current, client: String? = nil) {
        self.version = version
        self.client = client
    }
}
