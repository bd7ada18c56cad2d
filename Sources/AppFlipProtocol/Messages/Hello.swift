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

    private enum CodingKeys: String, CodingKey {
        case version, client
    }

    /// Decodes the request; a `version` of `1.5` is refused as a mismatch at `version`, not as a line that
    /// is no JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeInteger(forKey: .version)
        client = try container.decodeIfPresent(String.self, forKey: .client)
    }
}

/// The reply to `hello`.
public struct HelloResult: Sendable, Hashable, Codable {
    /// The protocol version the daemon speaks on this connection.
    public var version: Int
    /// The daemon program's name, `appflipd`.
    public var server: String
    /// The daemon's release (`appflipd --version`), so that a client or a CI log can tell which build answered;
    /// optional because daemons before it did not send one, and protocol v1 clients must accept either.
    public var serverVersion: String?
    /// The longest line, in bytes, newline excluded, the daemon accepts; longer ones are refused with `line_too_long`.
    public var maxLineBytes: Int
    /// The credentials the daemon recorded for this connection.
    public var peer: PeerInfo?

    /// Creates the reply.
    public init(version: Int, server: String, serverVersion: String? = nil, maxLineBytes: Int, peer: PeerInfo?) {
        self.version = version
        self.server = server
        self.serverVersion = serverVersion
        self.maxLineBytes = maxLineBytes
        self.peer = peer
    }
}

/// The version `hello` negotiates. A peer that asks for another version is refused with
/// `unsupported_version`, so that a future v2 can change anything without silent misreads.
public enum ProtocolVersion {
    /// Protocol v1, the only version there is.
    public static let current = 1
}

/// The activity type of a browsing-web `NSUserActivity`, the only kind a universal link is delivered as.
public let browsingWebActivityType = "NSUserActivityTypeBrowsingWeb"
